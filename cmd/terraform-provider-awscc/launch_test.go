package main

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"

	"github.com/cairn-iac/cairn/internal/testprocess"
)

// buildPlugin builds the plugin once per test binary: every test and
// benchmark launches the same build, as Terraform launches one binary.
var buildPlugin = testprocess.BuildOnce(".", "terraform-provider-awscc")

// launchResult is what one launch answered and what it cost.
type launchResult struct {
	// schema is the GetProviderSchema answer as the plugin sent it.
	schema []byte
	// toSchema is the time from starting the process to the answer's
	// last byte, handshake included: what Terraform waits at a launch.
	toSchema time.Duration
	// peakRSS is the process's peak resident set (VmHWM), in bytes.
	peakRSS uint64
}

// launch starts the plugin as Terraform does (go-plugin's handshake,
// mutual TLS) with env added to this process's environment, asks for the
// provider schema and keeps the answer's bytes without decoding them, so
// the time is the plugin's and not a client's.
func launch(tb testing.TB, bin string, env ...string) launchResult {
	tb.Helper()
	start := time.Now()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	pc, conn := dialPlugin(tb, cmd)
	defer pc.Kill()
	var out rawMessage
	err := conn.Invoke(context.Background(), "/tfplugin6.Provider/GetProviderSchema", &rawMessage{}, &out,
		grpc.ForceCodecV2(rawCodec{}), grpc.MaxCallRecvMsgSize(1<<30))
	if err != nil {
		tb.Fatal(err)
	}
	return launchResult{schema: out, toSchema: time.Since(start), peakRSS: testprocess.PeakRSS(cmd.Process.Pid)}
}

// dialPlugin starts cmd as a protocol 6 plugin, as Terraform does, and
// returns its client (the caller kills it) and the gRPC connection.
func dialPlugin(tb testing.TB, cmd *exec.Cmd) (*goplugin.Client, *grpc.ClientConn) {
	tb.Helper()
	pc := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: goplugin.HandshakeConfig{
			ProtocolVersion:  6,
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		Plugins:          goplugin.PluginSet{"provider": rawPlugin{}},
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		AutoMTLS:         true,
		Logger:           hclog.NewNullLogger(),
	})
	rpc, err := pc.Client()
	if err != nil {
		pc.Kill()
		tb.Fatalf("starting %s: %v", cmd.Path, err)
	}
	raw, err := rpc.Dispense("provider")
	if err != nil {
		pc.Kill()
		tb.Fatal(err)
	}
	return pc, raw.(*grpc.ClientConn)
}

// rawPlugin hands back the gRPC connection.
type rawPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (rawPlugin) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error { return nil }

func (rawPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, cc *grpc.ClientConn) (any, error) {
	return cc, nil
}

// rawMessage is a message's encoding, sent and received as it is (an
// empty GetProviderSchema.Request encodes to no bytes).
type rawMessage []byte

type rawCodec struct{}

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*rawMessage))}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*rawMessage) = data.Materialize()
	return nil
}

func (rawCodec) Name() string { return "proto" }
