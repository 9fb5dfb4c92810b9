package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// Serve runs a provider plugin as the Pulumi engine launches one: args
// are the plugin's command-line arguments (flags the engine passes, then
// the engine's address), the port it listens on is written to stdout,
// and it serves until ctx ends or the engine goes away.
func Serve(ctx context.Context, args []string, stdout io.Writer, info Info, load Loader) error {
	engine, err := engineAddress(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var host Logger
	if engine != "" {
		h, err := provider.NewHostClient(engine)
		if err != nil {
			return fmt.Errorf("connecting to the Pulumi engine at %s: %w", engine, err)
		}
		defer h.Close()
		host = h
		// The engine may exit without telling its plugins; the health
		// check ends the server when it stops answering.
		if err := rpcutil.Healthcheck(ctx, engine, 5*time.Minute, cancel); err != nil {
			return fmt.Errorf("watching the Pulumi engine: %w", err)
		}
	}
	srv := New(info, load, host)
	defer srv.Close()
	done := make(chan bool)
	go func() {
		<-ctx.Done()
		close(done)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: done,
		Init: func(g *grpc.Server) error {
			pulumirpc.RegisterResourceProviderServer(g, srv)
			return nil
		},
	})
	if err != nil {
		return fmt.Errorf("starting the gRPC server: %w", err)
	}
	// The protocol: the engine reads the port from the first line.
	if _, err := fmt.Fprintf(stdout, "%d\n", handle.Port); err != nil {
		return err
	}
	return <-handle.Done
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
