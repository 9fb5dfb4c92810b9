package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	// terraform-plugin-go's server registers the tfplugin6 descriptors
	// the tests build their messages from: its generated client is
	// internal to it, so the tests speak the protocol with dynamic
	// messages, as Cairn's plugin client does.
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// plugin is one provider process speaking protocol 6, as Terraform
// launches it.
type plugin struct {
	cc      *grpc.ClientConn
	service protoreflect.ServiceDescriptor
}

// startPlugin launches the provider binary bin with env added to this
// process's environment; the process ends with the test.
func startPlugin(tb testing.TB, bin string, env ...string) *plugin {
	tb.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	pc, conn := dialPlugin(tb, cmd)
	tb.Cleanup(pc.Kill)
	d, err := protoregistry.GlobalFiles.FindDescriptorByName("tfplugin6.Provider")
	if err != nil {
		tb.Fatal(err)
	}
	return &plugin{cc: conn, service: d.(protoreflect.ServiceDescriptor)}
}

// call invokes a unary RPC, fill writing the request (fields by their
// protocol names), and returns the answer.
func (p *plugin) call(tb testing.TB, method string, fill func(req *dynamicpb.Message)) *dynamicpb.Message {
	tb.Helper()
	md := p.service.Methods().ByName(protoreflect.Name(method))
	req, resp := dynamicpb.NewMessage(md.Input()), dynamicpb.NewMessage(md.Output())
	if fill != nil {
		fill(req)
	}
	if err := p.cc.Invoke(context.Background(), "/tfplugin6.Provider/"+method, req, resp, grpc.MaxCallRecvMsgSize(1<<30)); err != nil {
		tb.Fatalf("%s: %v", method, err)
	}
	return resp
}

// stream invokes a server-streaming RPC and returns every message sent.
func (p *plugin) stream(tb testing.TB, method string, fill func(req *dynamicpb.Message)) []*dynamicpb.Message {
	tb.Helper()
	md := p.service.Methods().ByName(protoreflect.Name(method))
	req := dynamicpb.NewMessage(md.Input())
	if fill != nil {
		fill(req)
	}
	cs, err := p.cc.NewStream(context.Background(), &grpc.StreamDesc{ServerStreams: true}, "/tfplugin6.Provider/"+method)
	if err != nil {
		tb.Fatal(err)
	}
	if err := cs.SendMsg(req); err != nil {
		tb.Fatal(err)
	}
	if err := cs.CloseSend(); err != nil {
		tb.Fatal(err)
	}
	var out []*dynamicpb.Message
	for {
		m := dynamicpb.NewMessage(md.Output())
		if err := cs.RecvMsg(m); err != nil {
			break
		}
		out = append(out, m)
	}
	return out
}

// asJSON decodes a message's protocol JSON into v.
func asJSON(tb testing.TB, m *dynamicpb.Message, v any) {
	tb.Helper()
	data, err := protojson.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		tb.Fatal(err)
	}
}

// set writes a field of a dynamic message; value is a Go value of the
// field's kind ([]byte, string, bool, int64) or a message.
func set(m *dynamicpb.Message, field string, value any) {
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(field))
	if msg, ok := value.(*dynamicpb.Message); ok {
		m.Set(fd, protoreflect.ValueOfMessage(msg))
		return
	}
	m.Set(fd, protoreflect.ValueOf(value))
}

// child returns a new message of a message field's type.
func child(m *dynamicpb.Message, field string) *dynamicpb.Message {
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(field))
	return dynamicpb.NewMessage(fd.Message())
}

// hashicorpAWSCC returns HashiCorp's awscc v1.97 binary, decompressed from
// $CAIRN_AWSCC_PLUGIN_XZ (by default the copy in /work/shared/tools); the
// test is skipped when it is not there.
func hashicorpAWSCC(tb testing.TB) string {
	tb.Helper()
	xz := os.Getenv("CAIRN_AWSCC_PLUGIN_XZ")
	if xz == "" {
		xz = "/work/shared/tools/terraform-provider-awscc_v1.97.0_linux_amd64.xz"
	}
	if _, err := os.Stat(xz); err != nil {
		tb.Skipf("HashiCorp's awscc plugin is not at %s: %v", xz, err)
	}
	bin := filepath.Join(tb.TempDir(), "terraform-provider-awscc")
	if out, err := exec.Command("sh", "-c", `xz -dc "$1" > "$2" && chmod +x "$2"`, "sh", xz, bin).CombinedOutput(); err != nil {
		tb.Skipf("cannot decompress %s: %v\n%s", xz, err, out)
	}
	return bin
}
