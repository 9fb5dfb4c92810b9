package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
)

// engine is a Pulumi engine's log service, as plugins reach it: it keeps
// the messages it is sent.
type engine struct {
	pulumirpc.UnimplementedEngineServer
	mu   sync.Mutex
	logs []*pulumirpc.LogRequest
}

func (e *engine) Log(_ context.Context, req *pulumirpc.LogRequest) (*emptypb.Empty, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.logs = append(e.logs, req)
	return &emptypb.Empty{}, nil
}

// startEngine serves e and a health service on loopback; stop ends it.
func startEngine(t *testing.T, e *engine) (addr string, stop func()) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	pulumirpc.RegisterEngineServer(g, e)
	healthpb.RegisterHealthServer(g, health.NewServer())
	go func() { _ = g.Serve(lis) }()
	t.Cleanup(g.Stop)
	return lis.Addr().String(), g.Stop
}

// TestServe runs a plugin as the engine launches one: it prints its port,
// answers on it, and sends the provider's warnings to the engine's log
// with the resource's URN; it ends when its context does.
func TestServe(t *testing.T) {
	e := &engine{}
	addr, _ := startEngine(t, e)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	served := make(chan error, 1)
	load := func() (*Provider, error) {
		a, err := addrs.ParseProviderSource(cairntest.Address)
		return &Provider{Addr: a, Factory: func() (providers.Interface, error) { return tfproto6.New(cairntest.NewServer()), nil }}, err
	}
	go func() {
		served <- Serve(ctx, []string{"--logtostderr", "-v=9", addr}, pw, Info{Name: "cairntest", Version: "0.1.0"}, load)
	}()
	port, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := pulumirpc.NewResourceProviderClient(conn)
	info, err := client.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil || info.GetVersion() != "0.1.0" {
		t.Fatalf("GetPluginInfo: %v, %v", info, err)
	}
	// cairntest's ConfigureProvider warns with the Terraform version.
	if _, err := client.Configure(ctx, &pulumirpc.ConfigureRequest{Args: props(t, nil), AcceptSecrets: true}); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	e.mu.Lock()
	logs := e.logs
	e.mu.Unlock()
	if len(logs) != 1 || logs[0].GetSeverity() != pulumirpc.LogSeverity_WARNING || !strings.Contains(logs[0].GetMessage(), "terraform_version") {
		t.Errorf("engine log %v, want the provider's one warning", logs)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve after its context ended: %v", err)
	}
}

// TestWatchEngine: the plugin learns that the engine is gone from its
// health check, and not before.
func TestWatchEngine(t *testing.T) {
	addr, stop := startEngine(t, &engine{})
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	gone := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checks := healthCounter{HealthClient: healthpb.NewHealthClient(conn), n: make(chan struct{}, 100)}
	go watchEngine(ctx, checks, time.Millisecond, func() { close(gone) })
	for i := 0; i < 3; i++ {
		<-checks.n
	}
	select {
	case <-gone:
		t.Fatal("the engine was taken for gone while it answered")
	default:
	}
	stop()
	<-gone
}

// healthCounter signals each health check it passes on.
type healthCounter struct {
	healthpb.HealthClient
	n chan struct{}
}

func (h healthCounter) Check(ctx context.Context, req *healthpb.HealthCheckRequest, opts ...grpc.CallOption) (*healthpb.HealthCheckResponse, error) {
	resp, err := h.HealthClient.Check(ctx, req, opts...)
	if err == nil {
		h.n <- struct{}{}
	}
	return resp, err
}

// TestServeLoadsAfterStoredSchema: served over gRPC with a kept package
// schema, the plugin answers GetSchema from it and starts loading the
// provider once that answer has been sent.
func TestServeLoadsAfterStoredSchema(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	started := make(chan struct{})
	load := func() (*Provider, error) {
		close(started)
		a, err := addrs.ParseProviderSource(cairntest.Address)
		return &Provider{Addr: a, Factory: func() (providers.Interface, error) { return tfproto6.New(cairntest.NewServer()), nil }}, err
	}
	pr, pw := io.Pipe()
	served := make(chan error, 1)
	info := Info{Name: "cairntest", Version: "0.1.0", Schemas: &memStore{schema: []byte(`{"name":"kept"}`)}}
	go func() { served <- Serve(ctx, nil, pw, info, load) }()
	port, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := pulumirpc.NewResourceProviderClient(conn)
	if _, err := client.GetPluginInfo(ctx, &emptypb.Empty{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
		t.Fatal("with a kept schema, the load must wait for GetSchema's answer")
	case <-time.After(20 * time.Millisecond):
	}
	resp, err := client.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil || resp.GetSchema() != `{"name":"kept"}` {
		t.Fatalf("GetSchema: %v, %v", resp, err)
	}
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the load must start once GetSchema's answer is sent")
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve after its context ended: %v", err)
	}
}
