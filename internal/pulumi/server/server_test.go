package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

const data = "urn:pulumi:dev::p::terraform:index/data:Data::d"

// TestCheck: bad inputs come back as failures at their property paths;
// good ones come back checked.
func TestCheck(t *testing.T) {
	s := terraformServer(t)
	cases := []struct {
		name     string
		news     map[string]any
		property string
		reason   string
	}{
		{"unknown property", map[string]any{"inptu": "x"}, "inptu", "unsupported property"},
		{"read-only property", map[string]any{"output": "x"}, "output", "output of the provider"},
		{"good", map[string]any{"input": "x"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := s.Check(context.Background(), &pulumirpc.CheckRequest{Urn: data, News: props(t, c.news)})
			if err != nil {
				t.Fatal(err)
			}
			if c.reason == "" {
				if len(resp.Failures) > 0 {
					t.Fatalf("failures %v", resp.Failures)
				}
				if got := read(t, resp.Inputs)["input"]; !got.IsString() || got.StringValue() != "x" {
					t.Fatalf("checked inputs %v", resp.Inputs)
				}
				return
			}
			if len(resp.Failures) != 1 || resp.Failures[0].Property != c.property || !strings.Contains(resp.Failures[0].Reason, c.reason) {
				t.Fatalf("failures %v, want one at %q saying %q", resp.Failures, c.property, c.reason)
			}
		})
	}
}

// TestUnknownType names the type the provider lacks.
func TestUnknownType(t *testing.T) {
	s := terraformServer(t)
	_, err := s.Check(context.Background(), &pulumirpc.CheckRequest{Urn: "urn:pulumi:dev::p::terraform:index/nope:Nope::x"})
	if err == nil || !strings.Contains(err.Error(), "no resource type terraform:index/nope:Nope") {
		t.Fatalf("error %v", err)
	}
}

// TestTerraformData runs terraform_data through create (preview and
// real), an update, a replacement and delete, with a secret input whose
// copy in output stays secret.
func TestTerraformData(t *testing.T) {
	s := terraformServer(t)
	ctx := context.Background()
	news := props(t, map[string]any{"input": resource.MakeSecret(resource.NewStringProperty("hunter22")), "triggersReplace": "a"})
	pre, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: data, Properties: news, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	if pre.Id != "" || !read(t, pre.Properties)["output"].ContainsUnknowns() {
		t.Fatalf("preview: id %q, properties %v; want no id and an unknown output", pre.Id, pre.Properties)
	}
	created, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: data, Properties: news})
	if err != nil {
		t.Fatal(err)
	}
	out := read(t, created.Properties)
	if created.Id == "" || out["id"].StringValue() != created.Id {
		t.Fatalf("id %q, outputs %v", created.Id, out)
	}
	if !out["output"].IsSecret() || !out["input"].IsSecret() {
		t.Fatalf("a secret input and its copy must stay secret: %v", out)
	}

	diff := func(n map[string]any) *pulumirpc.DiffResponse {
		t.Helper()
		d, err := s.Diff(ctx, &pulumirpc.DiffRequest{Urn: data, Id: created.Id, Olds: created.Properties, News: props(t, n)})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	same := map[string]any{"input": resource.MakeSecret(resource.NewStringProperty("hunter22")), "triggersReplace": "a"}
	if d := diff(same); d.Changes != pulumirpc.DiffResponse_DIFF_NONE {
		t.Fatalf("same inputs: %v", d)
	}
	if d := diff(map[string]any{"input": "b", "triggersReplace": "a"}); d.Changes != pulumirpc.DiffResponse_DIFF_SOME || len(d.Replaces) != 0 ||
		d.DetailedDiff["input"].GetKind() != pulumirpc.PropertyDiff_UPDATE || d.DetailedDiff["output"] != nil {
		t.Fatalf("input change: %v", d)
	}
	if d := diff(map[string]any{"input": "b", "triggersReplace": "z"}); strings.Join(d.Replaces, ",") != "triggersReplace" ||
		d.DetailedDiff["triggersReplace"].GetKind() != pulumirpc.PropertyDiff_UPDATE_REPLACE {
		t.Fatalf("trigger change: %v", d)
	}

	upd, err := s.Update(ctx, &pulumirpc.UpdateRequest{Urn: data, Id: created.Id, Olds: created.Properties, News: props(t, map[string]any{"input": "b", "triggersReplace": "a"})})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, upd.Properties)["output"]; got.IsSecret() || got.StringValue() != "b" {
		t.Fatalf("updated output %v", got)
	}
	if _, err := s.Delete(ctx, &pulumirpc.DeleteRequest{Urn: data, Id: created.Id, Properties: upd.Properties}); err != nil {
		t.Fatal(err)
	}
}

// TestLogGroup runs an awscc log group through Cloud Control: create,
// refresh, update, a createOnly change, import and delete, and a data
// source through Invoke.
func TestLogGroup(t *testing.T) {
	s := awsccServer(t)
	ctx := context.Background()
	news := props(t, map[string]any{"logGroupName": "app", "retentionInDays": 7})
	created, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: logGroup, Properties: news})
	if err != nil {
		t.Fatal(err)
	}
	if created.Id != "app" || !strings.HasSuffix(read(t, created.Properties)["arn"].StringValue(), ":log-group:app:*") {
		t.Fatalf("created %q %v", created.Id, created.Properties)
	}
	refreshed, err := s.Read(ctx, &pulumirpc.ReadRequest{Urn: logGroup, Id: "app", Properties: created.Properties, Inputs: news})
	if err != nil || refreshed.Id != "app" {
		t.Fatalf("refresh: %v %v", refreshed, err)
	}
	d, err := s.Diff(ctx, &pulumirpc.DiffRequest{Urn: logGroup, Id: "app", Olds: refreshed.Properties,
		News: props(t, map[string]any{"logGroupName": "app2", "retentionInDays": 7})})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Replaces, ",") != "logGroupName" || d.DeleteBeforeReplace {
		t.Fatalf("name change: %v", d)
	}

	imported, err := s.Read(ctx, &pulumirpc.ReadRequest{Urn: logGroup, Id: "app"})
	if err != nil {
		t.Fatal(err)
	}
	ins := read(t, imported.Inputs)
	if ins["logGroupName"].StringValue() != "app" || ins["retentionInDays"].NumberValue() != 7 || ins.HasValue("arn") {
		t.Fatalf("import inputs %v: want the settable attributes only", ins)
	}
	d, err = s.Diff(ctx, &pulumirpc.DiffRequest{Urn: logGroup, Id: "app", Olds: imported.Properties, News: imported.Inputs})
	if err != nil || d.Changes != pulumirpc.DiffResponse_DIFF_NONE {
		t.Fatalf("an imported object diffed against its own inputs: %v %v", d, err)
	}

	got, err := s.Invoke(ctx, &pulumirpc.InvokeRequest{Tok: "awscc:logs/getLogGroup:getLogGroup", Args: props(t, map[string]any{"id": "app"})})
	if err != nil || len(got.Failures) > 0 || read(t, got.Return)["retentionInDays"].NumberValue() != 7 {
		t.Fatalf("invoke: %v %v", got, err)
	}

	if _, err := s.Delete(ctx, &pulumirpc.DeleteRequest{Urn: logGroup, Id: "app", Properties: created.Properties}); err != nil {
		t.Fatal(err)
	}
	gone, err := s.Read(ctx, &pulumirpc.ReadRequest{Urn: logGroup, Id: "app", Properties: created.Properties})
	if err != nil || gone.Id != "" {
		t.Fatalf("read after delete: %v %v; want no id", gone, err)
	}
}

// TestDiffConfig: a region change replaces the provider; anything else
// updates it in place.
func TestDiffConfig(t *testing.T) {
	s := awsccServer(t)
	d, err := s.DiffConfig(context.Background(), &pulumirpc.DiffRequest{
		Olds: props(t, map[string]any{"region": "us-east-1", "maxRetries": 3, "version": "0.1.0"}),
		News: props(t, map[string]any{"region": "eu-west-1", "maxRetries": 5, "version": "0.2.0"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Replaces, ",") != "region" || strings.Join(d.Diffs, ",") != "maxRetries,region" {
		t.Fatalf("diff %v", d)
	}
}

// TestContractViolation: a plan that changes a configured value is an
// error naming the provider, not a diff.
func TestContractViolation(t *testing.T) {
	s := cairntestServer(t)
	_, err := s.Diff(context.Background(), &pulumirpc.DiffRequest{Urn: thing, News: props(t, map[string]any{"name": "a", "badPlan": true})})
	if err == nil || !strings.Contains(err.Error(), "Provider produced invalid plan") || !strings.Contains(err.Error(), "cairn/cairntest") {
		t.Fatalf("error %v", err)
	}
}

const thing = "urn:pulumi:dev::p::cairntest:index/thing:Thing::t"

// TestPartialCreate: an object the provider made before failing is
// returned with the error (ErrorResourceInitFailed), with its private
// data, so Pulumi keeps it.
func TestPartialCreate(t *testing.T) {
	s := cairntestServer(t)
	_, err := s.Create(context.Background(), &pulumirpc.CreateRequest{Urn: thing, Properties: props(t, map[string]any{"name": "a", "partial": true})})
	st, _ := status.FromError(err)
	var init *pulumirpc.ErrorResourceInitFailed
	for _, d := range st.Details() {
		if e, ok := d.(*pulumirpc.ErrorResourceInitFailed); ok {
			init = e
		}
	}
	if init == nil || init.Id != "thing-a" || !strings.Contains(strings.Join(init.Reasons, ""), "Create failed part way") {
		t.Fatalf("error %v: want ErrorResourceInitFailed for thing-a", err)
	}
	// The kept object reads back: its private data survived.
	if _, err := s.Read(context.Background(), &pulumirpc.ReadRequest{Urn: thing, Id: init.Id, Properties: init.Properties}); err != nil {
		t.Fatal(err)
	}
}

// TestCancel: Cancel ends an operation in flight.
func TestCancel(t *testing.T) {
	s := cairntestServer(t)
	done := make(chan error, 1)
	go func() {
		_, err := s.Create(context.Background(), &pulumirpc.CreateRequest{Urn: thing, Properties: props(t, map[string]any{"name": "a", "hang": true})})
		done <- err
	}()
	for {
		if _, err := s.Cancel(context.Background(), &emptypb.Empty{}); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "Create stopped") {
				t.Fatalf("error %v", err)
			}
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestTimeout: the request's timeout bounds the operation.
func TestTimeout(t *testing.T) {
	s := cairntestServer(t)
	_, err := s.Create(context.Background(), &pulumirpc.CreateRequest{Urn: thing, Timeout: 0.05, Properties: props(t, map[string]any{"name": "a", "hang": true})})
	if err == nil || !strings.Contains(err.Error(), "Create stopped") {
		t.Fatalf("error %v", err)
	}
}

// TestLazyLoad: GetPluginInfo and Handshake answer while the provider is
// still loading; other calls wait for it.
func TestLazyLoad(t *testing.T) {
	release := make(chan struct{})
	s := New(Info{Name: "slow", Version: "1.2.3"}, func() (*Provider, error) {
		<-release
		return nil, context.Canceled
	}, nil)
	info, err := s.GetPluginInfo(context.Background(), &emptypb.Empty{})
	if err != nil || info.Version != "1.2.3" {
		t.Fatalf("info %v %v", info, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.GetSchema(ctx, &pulumirpc.GetSchemaRequest{}); err == nil {
		t.Fatal("GetSchema answered before the provider loaded")
	}
	close(release)
	if _, err := s.GetSchema(context.Background(), &pulumirpc.GetSchemaRequest{}); err == nil || !strings.Contains(err.Error(), "Failed to load the provider") {
		t.Fatalf("error %v", err)
	}
}

// TestConfigureVariables: an engine that sends only the stack
// configuration ("awscc:config:region", values as strings) configures the
// provider as args would; a non-string attribute's value is JSON.
func TestConfigureVariables(t *testing.T) {
	s := awsccServer(t)
	config := func(vars map[string]string) (cty.Value, error) {
		pm, err := s.configureArgs(&pulumirpc.ConfigureRequest{Variables: vars})
		if err != nil {
			return cty.NilVal, err
		}
		return s.providerConfig(pm)
	}
	v, err := config(map[string]string{
		"awscc:config:region": "eu-west-1", "awscc:maxRetries": "3", "awscc:config:insecure": "true",
		"awscc:endpoints": `{"cloudcontrolapi":"http://127.0.0.1:1"}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !v.GetAttr("region").RawEquals(cty.StringVal("eu-west-1")) || !v.GetAttr("max_retries").RawEquals(cty.NumberIntVal(3)) ||
		!v.GetAttr("insecure").RawEquals(cty.True) || !v.GetAttr("endpoints").GetAttr("cloudcontrolapi").RawEquals(cty.StringVal("http://127.0.0.1:1")) {
		t.Fatalf("configuration %#v", v)
	}
	if _, err := config(map[string]string{"awscc:maxRetries": "three"}); err == nil || strings.Contains(err.Error(), "three") {
		t.Fatalf("a bad value must fail without quoting it: %v", err)
	}
}

// TestConfigJSONEncoded: an object-typed provider setting in a stack's or
// program's configuration (awscc:endpoints) reaches the provider as the
// engine sends it, JSON in a string, plain or secret: CheckConfig passes
// it, Configure uses it (the only way to the endpoint here: the AWS
// environment points nowhere), and DiffConfig sees no change between it
// and the same object decoded.
func TestConfigJSONEncoded(t *testing.T) {
	url, p := awsccAt(t, 0)
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	ctx := context.Background()
	encoded := resource.NewProperty(`{"cloudcontrolapi":"` + url + `"}`)
	for name, endpoints := range map[string]resource.PropertyValue{"plain": encoded, "secret": resource.MakeSecret(encoded)} {
		t.Run(name, func(t *testing.T) {
			config := marshalled(t, resource.PropertyMap{"region": resource.NewProperty("us-east-1"), "endpoints": endpoints})
			s := New(Info{Name: "awscc", Version: "0.1.0"}, func() (*Provider, error) { return p, nil }, nil)
			t.Cleanup(func() { _ = s.Close() })
			checked, err := s.CheckConfig(ctx, &pulumirpc.CheckRequest{Urn: "urn:pulumi:dev::p::pulumi:providers:awscc::default", News: config})
			if err != nil || len(checked.Failures) > 0 {
				t.Fatalf("CheckConfig: %v %v", checked.GetFailures(), err)
			}
			if _, err := s.Configure(ctx, &pulumirpc.ConfigureRequest{Args: config, AcceptSecrets: true}); err != nil {
				t.Fatalf("Configure: %v", err)
			}
			created, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: logGroup, Properties: props(t, map[string]any{"logGroupName": "json-" + name})})
			if err != nil || created.Id != "json-"+name {
				t.Fatalf("Create through the configured endpoint: %v %v", created, err)
			}
			d, err := s.DiffConfig(ctx, &pulumirpc.DiffRequest{Olds: config,
				News: props(t, map[string]any{"region": "us-east-1", "endpoints": map[string]any{"cloudcontrolapi": url}})})
			if err != nil || d.Changes != pulumirpc.DiffResponse_DIFF_NONE {
				t.Fatalf("DiffConfig of the same endpoints, encoded and not: %v %v", d, err)
			}
			inner := marshalled(t, resource.PropertyMap{"region": resource.NewProperty("us-east-1"),
				"endpoints": resource.NewProperty(`{"cloudcontrolapi":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","value":"` + url + `"}}`)})
			d, err = s.DiffConfig(ctx, &pulumirpc.DiffRequest{Olds: config, News: inner})
			if err != nil || d.Changes != pulumirpc.DiffResponse_DIFF_NONE {
				t.Fatalf("DiffConfig of the same endpoints, one with a secret inside: %v %v", d, err)
			}
		})
	}
}

func marshalled(t testing.TB, pm resource.PropertyMap) *structpb.Struct {
	t.Helper()
	st, err := marshal(pm)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// memStore is a SchemaStore in memory.
type memStore struct {
	mu     sync.Mutex
	schema []byte
	stores int
}

func (m *memStore) Load() ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.schema, m.schema != nil
}

func (m *memStore) Store(schema []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.schema, m.stores = schema, m.stores+1
}

// TestStoredSchema: a server whose store holds the package schema
// answers GetSchema from it at once, while the provider is still
// loading; one whose store is empty builds the schema once the provider
// has loaded and keeps it, and the next server answers the same bytes.
func TestStoredSchema(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{})
	held := &memStore{schema: []byte(`{"name":"kept"}`)}
	slow := New(Info{Name: "slow", Version: "1.2.3", Schemas: held}, func() (*Provider, error) {
		close(started)
		<-release
		return nil, context.Canceled
	}, nil)
	// Close waits for the load, which waits for release.
	defer func() { close(release); _ = slow.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	select {
	case <-started:
		t.Fatal("with a kept schema, the load must wait for GetSchema's answer")
	case <-time.After(20 * time.Millisecond):
	}
	resp, err := slow.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil || resp.Schema != `{"name":"kept"}` {
		t.Fatalf("a kept schema must be answered before the provider loads: %v %v", resp, err)
	}
	select {
	case <-started:
		t.Fatal("the load must wait until the answer is sent")
	case <-time.After(20 * time.Millisecond):
	}
	slow.sent(pulumirpc.ResourceProvider_GetSchema_FullMethodName)
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the load must start once GetSchema's answer is sent")
	}

	empty := &memStore{}
	tp := builtin.NewTerraformProvider()
	p := &Provider{Addr: builtin.TerraformProviderAddr, Factory: func() (providers.Interface, error) { return tp, nil }}
	built := New(Info{Name: "terraform", Version: "0.1.0", Schemas: empty}, func() (*Provider, error) { return p, nil }, nil)
	defer built.Close()
	first, err := built.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := built.GetSchema(ctx, &pulumirpc.GetSchemaRequest{}); err != nil || empty.stores != 1 || string(empty.schema) != first.Schema {
		t.Fatalf("the built schema must be kept once: %d stores, err %v", empty.stores, err)
	}
	next := New(Info{Name: "terraform", Version: "0.1.0", Schemas: empty}, func() (*Provider, error) { return p, nil }, nil)
	defer next.Close()
	if again, err := next.GetSchema(ctx, &pulumirpc.GetSchemaRequest{}); err != nil || again.Schema != first.Schema {
		t.Fatalf("the next server must answer the kept schema: %v", err)
	}
}

// TestCloseUnloaded: a server whose provider was never needed closes
// without loading it.
func TestCloseUnloaded(t *testing.T) {
	loads := 0
	s := New(Info{Name: "x", Schemas: &memStore{schema: []byte("{}")}}, func() (*Provider, error) {
		loads++
		return nil, context.Canceled
	}, nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if loads != 0 {
		t.Errorf("the provider was loaded %d times to be closed", loads)
	}
}
