package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// maxMessage is the largest message the server takes and the engine
// connection receives: Pulumi raises gRPC's 4 MiB default to 400 MiB on
// both ends, and a program's inputs can be large.
const maxMessage = 400 << 20

// healthInterval is how often the server checks the engine is still
// there, as Pulumi's plugins do.
const healthInterval = 5 * time.Minute

// Serve runs a provider plugin as the Pulumi engine launches one: args
// are the plugin's command-line arguments (flags the engine passes, then
// the engine's address), the port it listens on is written to stdout,
// and it serves until ctx ends or the engine goes away.
//
// It is built on gRPC alone, not the Pulumi SDK's serving helpers, which
// link the SDK's terminal UI library and with it a terminal query at
// process start (see internal/pulumi/propwire).
func Serve(ctx context.Context, args []string, stdout io.Writer, info Info, load Loader) error {
	engine, err := engineAddress(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var host Logger
	if engine != "" {
		conn, err := grpc.NewClient(engine, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessage)))
		if err != nil {
			return fmt.Errorf("connecting to the Pulumi engine at %s: %w", engine, err)
		}
		defer conn.Close()
		host = engineLog{pulumirpc.NewEngineClient(conn)}
		// The engine may exit without telling its plugins; the health
		// check ends the server when it stops answering.
		go watchEngine(ctx, healthpb.NewHealthClient(conn), healthInterval, cancel)
	}
	srv := New(info, load, host)
	defer srv.Close()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("starting the gRPC server: %w", err)
	}
	g := grpc.NewServer(grpc.MaxRecvMsgSize(maxMessage), grpc.StatsHandler(sentHandler{srv}))
	pulumirpc.RegisterResourceProviderServer(g, srv)
	hs := health.NewServer()
	hs.SetServingStatus("pulumirpc.ResourceProvider", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(g, hs)
	done := make(chan error, 1)
	go func() { done <- g.Serve(lis) }()
	// The protocol: the engine reads the port from the first line.
	if _, err := fmt.Fprintf(stdout, "%d\n", lis.Addr().(*net.TCPAddr).Port); err != nil {
		g.Stop()
		return err
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		g.GracefulStop()
		if err := <-done; err != nil && !errors.Is(err, grpc.ErrServerStopped) && !strings.HasSuffix(err.Error(), "use of closed network connection") {
			return err
		}
		return nil
	}
}

// watchEngine checks the engine's health every interval and calls gone
// when it does not answer. An engine without the health service
// (Unimplemented) is alive.
func watchEngine(ctx context.Context, hc healthpb.HealthClient, interval time.Duration, gone func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_, err := hc.Check(ctx, &healthpb.HealthCheckRequest{})
			if err != nil && status.Code(err) != codes.Unimplemented {
				gone()
				return
			}
		}
	}
}

// engineLog sends messages to the engine's log.
type engineLog struct{ c pulumirpc.EngineClient }

func (e engineLog) Log(ctx context.Context, sev pulumirpc.LogSeverity, urn resource.URN, msg string) error {
	_, err := e.c.Log(ctx, &pulumirpc.LogRequest{Severity: sev, Urn: string(urn), Message: strings.ToValidUTF8(msg, "\uFFFD")})
	return err
}

// engineAddress reads the plugin's arguments: the flags Pulumi passes to
// every plugin (logging, tracing), which the server accepts and ignores,
// then the engine's address. No address means attach mode (no engine to
// report to).
func engineAddress(args []string) (string, error) {
	fs := flag.NewFlagSet("pulumi-resource", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("tracing", "", "")
	fs.Bool("logflow", false, "")
	fs.Bool("logtostderr", false, "")
	fs.Int("v", 0, "")
	if err := fs.Parse(args); err != nil {
		return "", fmt.Errorf("plugin arguments: %w", err)
	}
	switch fs.NArg() {
	case 0:
		return "", nil
	case 1:
		return fs.Arg(0), nil
	}
	return "", errors.New("plugin arguments: want at most one engine address")
}
