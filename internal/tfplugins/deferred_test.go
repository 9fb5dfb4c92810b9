package tfplugins

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/plugincache"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
)

// wireSchema returns a server's GetProviderSchema answer as the plugin
// sends it: terraform-plugin-go's gRPC server (tf6server.New) over s, its
// answer encoded deterministically.
func wireSchema(t testing.TB, s tfprotov6.ProviderServer) proto.Message {
	t.Helper()
	quiet(t)
	srv := reflect.ValueOf(tf6server.New(awscc.Addr.String(), s, tf6server.WithoutLogStderrOverride()))
	m := srv.MethodByName("GetProviderSchema")
	out := m.Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.New(m.Type().In(1).Elem())})
	if err, _ := out[1].Interface().(error); err != nil {
		t.Fatal(err)
	}
	return out[0].Interface().(proto.Message)
}

// quiet turns off terraform-plugin-go's and the framework's logs, which a
// server made in process writes to stderr at trace level (in a plugin
// process, Terraform reads and filters them).
func quiet(t testing.TB) {
	for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(v, "OFF")
	}
}

func encode(t testing.TB, m proto.Message) []byte {
	t.Helper()
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// eagerAndIndex loads every built-in type as a launch without a cache
// does, and the index that launch keeps.
func eagerAndIndex(t testing.TB, types string) (*awscc.Provider, typeIndex) {
	t.Helper()
	src := cfnsources.Sources{}
	catalog, problems, err := src.Load(cfnsources.TypeFilter(types))
	if err != nil {
		t.Fatal(err)
	}
	p, err := awscc.NewFromCatalog(catalog, problems, src.Describe())
	if err != nil {
		t.Fatal(err)
	}
	return p, typeIndex{Types: cfnsources.Index(catalog), Problems: problems}
}

// TestDeferredMatchesEager: over every built-in type, the provider a warm
// launch serves (each type translated alone, from the index) answers
// GetProviderSchema with exactly the bytes of the provider that
// translates the whole set, so validation and planning see the same
// schema whichever launch serves them.
func TestDeferredMatchesEager(t *testing.T) {
	eager, idx := eagerAndIndex(t, "")
	if len(idx.Types) < 1400 {
		t.Fatalf("%d types indexed; want every built-in type", len(idx.Types))
	}
	deferred := deferredProvider(idx, cfnsources.Sources{}.Describe())
	want, got := encode(t, wireSchema(t, eager.Server())), encode(t, wireSchema(t, deferred.Server()))
	if !bytes.Equal(want, got) {
		t.Fatalf("GetProviderSchema differs: eager %d bytes, deferred %d bytes", len(want), len(got))
	}
}

// TestDeferredTranslatesOnUse: a launch that validates one resource
// translates that type only, once, though the framework lists every
// resource's name first.
func TestDeferredTranslatesOnUse(t *testing.T) {
	quiet(t)
	_, idx := eagerAndIndex(t, "")
	var mu sync.Mutex
	loaded := map[string]int{}
	byName := map[string]cfnsources.Entry{}
	var types []awscc.DeferredType
	for _, e := range idx.Types {
		byName[e.TypeName] = e
		types = append(types, awscc.DeferredType{TypeName: e.TypeName, TerraformName: e.TerraformName, PluralName: e.PluralName, Suppressed: e.Suppressed != ""})
	}
	p := awscc.NewDeferred(types, func(typeName string) (*cfnschema.ResourceType, error) {
		mu.Lock()
		loaded[typeName]++
		mu.Unlock()
		return cfnsources.LoadEntry(byName[typeName])
	}, nil, "test")
	ctx := context.Background()
	for range 2 {
		s := p.Server()
		resp, err := s.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{
			TypeName: "awscc_logs_log_group", Config: &tfprotov6.DynamicValue{MsgPack: []byte{0xc0}},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range resp.Diagnostics {
			if d.Summary == "Resource Type Not Found" || d.Summary == "Cannot load AWS::Logs::LogGroup" {
				t.Fatalf("%s: %s", d.Summary, d.Detail)
			}
		}
	}
	if want := map[string]int{"AWS::Logs::LogGroup": 1}; !reflect.DeepEqual(loaded, want) {
		t.Errorf("translated %v, want %v", loaded, want)
	}
}

// TestReplay: the first GetProviderSchema of a schema set is built and
// kept; later ones are the kept bytes, without building; an answer that
// reports an error is not kept; a damaged entry is built again.
func TestReplay(t *testing.T) {
	eager, _ := eagerAndIndex(t, "AWS::Logs::LogGroup,AWS::S3::Bucket")
	built := encode(t, wireSchema(t, eager.Server()))
	dir := t.TempDir()
	cache := launchCache{cache: plugincache.Open(dir), key: "k"}
	info := &grpc.UnaryServerInfo{FullMethod: getProviderSchemaMethod}
	call := func(r *schemaReplay, answer proto.Message) (any, int) {
		calls := 0
		out, err := r.intercept(context.Background(), nil, info, func(context.Context, any) (any, error) {
			calls++
			return answer, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out, calls
	}
	answer := wireSchema(t, eager.Server())
	if out, calls := call(&schemaReplay{cache: cache}, answer); calls != 1 || !bytes.Equal(out.(rawReply), built) {
		t.Fatalf("cold: %d builds, want 1 and the built bytes", calls)
	}
	if out, calls := call(&schemaReplay{cache: cache}, answer); calls != 0 || !bytes.Equal(out.(rawReply), built) {
		t.Fatalf("warm: %d builds, want 0 and the kept bytes", calls)
	}
	if err := os.WriteFile(filepath.Join(dir, cache.schemaName()), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, calls := call(&schemaReplay{cache: cache}, answer); calls != 1 || !bytes.Equal(out.(rawReply), built) {
		t.Fatalf("damaged: %d builds, want 1 and the built bytes", calls)
	}
	if out, calls := call(&schemaReplay{cache: cache}, answer); calls != 0 || !bytes.Equal(out.(rawReply), built) {
		t.Fatalf("repaired: %d builds, want 0 and the kept bytes", calls)
	}
	failing := &schemaReplay{cache: launchCache{cache: cache.cache, key: "failing"}}
	errAnswer := wireSchema(t, failingServer{eager.Server()})
	if out, _ := call(failing, errAnswer); !proto.Equal(out.(proto.Message), errAnswer) {
		t.Errorf("an answer with an error must be sent as built")
	}
	if _, ok := cache.cache.Read(failing.cache.schemaName()); ok {
		t.Errorf("an answer with an error must not be kept")
	}
	if out, _ := call(&schemaReplay{cache: launchCache{cache: cache.cache, key: "other"}}, answer); !bytes.Equal(out.(rawReply), built) {
		t.Errorf("another key must build its own entry")
	}
}

// failingServer answers GetProviderSchema with an error diagnostic.
type failingServer struct{ tfprotov6.ProviderServer }

func (f failingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := f.ProviderServer.GetProviderSchema(ctx, req)
	if resp != nil {
		resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "broken"})
	}
	return resp, err
}

// TestReplayIdentity: GetResourceIdentitySchemas, which needs every type
// translated, is kept and replayed like GetProviderSchema, in an entry of
// its own; other methods pass through.
func TestReplayIdentity(t *testing.T) {
	dir := t.TempDir()
	cache := launchCache{cache: plugincache.Open(dir), key: "k"}
	call := func(r *schemaReplay, method string, answer proto.Message) (any, int) {
		calls := 0
		out, err := r.intercept(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: method}, func(context.Context, any) (any, error) {
			calls++
			return answer, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out, calls
	}
	identity := &emptypb.Empty{}
	if _, calls := call(&schemaReplay{cache: cache}, getResourceIdentitySchemasMethod, identity); calls != 1 {
		t.Fatalf("cold: %d builds, want 1", calls)
	}
	if _, calls := call(&schemaReplay{cache: cache}, getResourceIdentitySchemasMethod, identity); calls != 0 {
		t.Fatalf("warm: %d builds, want 0", calls)
	}
	if _, ok := cache.cache.Read(cache.identityName()); !ok {
		t.Errorf("no identity entry kept")
	}
	if _, ok := cache.cache.Read(cache.schemaName()); ok {
		t.Errorf("an identity answer was kept as the schema")
	}
	if _, calls := call(&schemaReplay{cache: cache}, "/tfplugin6.Provider/ReadResource", identity); calls != 1 {
		t.Errorf("ReadResource was not passed through")
	}
}
