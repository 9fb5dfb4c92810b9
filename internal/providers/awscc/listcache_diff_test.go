package awscc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/cairn-iac/cairn/cfnschema"
	cc "github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/cairn-iac/cairn/cloudcontrol/boltstore"
	"github.com/cairn-iac/cairn/cloudcontrol/emulator"
	ccserver "github.com/cairn-iac/cairn/cloudcontrol/server"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// startCorpusEndpoint serves every type of the schema corpus with the
// emulator, without signature checks, and returns a client of it.
func startCorpusEndpoint(t *testing.T, corpus string) *cloudcontrol.Client {
	t.Helper()
	db, err := boltstore.Open(filepath.Join(t.TempDir(), "cc.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ccserver.New(ccserver.Options{
		Region: "eu-west-1", Requests: db,
		Types: func(name string) (*cc.ResourceType, error) {
			schema, err := os.ReadFile(filepath.Join(corpus, strings.ReplaceAll(name, "::", "_")+".json"))
			if err != nil {
				return nil, err
			}
			h, err := emulator.New(name, schema, db)
			if err != nil {
				return nil, err
			}
			return &cc.ResourceType{Name: name, Schema: schema, Handler: h}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		_ = srv.Close()
		_ = db.Close()
	})
	return cloudcontrol.New(cloudcontrol.Options{Region: "eu-west-1", BaseEndpoint: aws.String(hs.URL),
		Credentials: aws.AnonymousCredentials{}})
}

// diffObjects is how many objects of each type the differential test
// creates: more than the warmup, so that pages answer some reads.
const diffObjects = 4

// TestListCacheDifferential creates objects of every listable type the
// emulator serves (those a minimal model synthesised from the schema can
// create) and reads each one twice, object by object with the cache
// disabled and through the cache: the states must be identical.
func TestListCacheDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("creates objects of every type of the corpus")
	}
	corpus := corpusDir(t)
	p, err := New(corpus)
	if err != nil {
		t.Fatal(err)
	}
	client := startCorpusEndpoint(t, corpus)
	ctx := context.Background()
	perObject := &runtime{api: client, poll: fastPolls, stop: ctx}
	cached := &runtime{api: client, poll: fastPolls, stop: ctx, lists: newListCache(time.Hour)}
	cached.lists.warmup = 1
	counter := &countingAPI{api: client}
	cached.api = counter

	var compared, answered, skipped int
	for _, rt := range p.Catalog().Types() {
		if rt.PluralName == "" {
			continue
		}
		ids := createObjects(ctx, t, perObject, corpus, rt.TypeName)
		if len(ids) < 2 {
			skipped++
			continue
		}
		ty := resourceObjectType(t, rt.TypeName, p)
		before := counter.gets()
		for _, id := range ids {
			want := readState(ctx, t, perObject, rt, ty, id, perObject.getModel)
			got := readState(ctx, t, cached, rt, ty, id, func(ctx context.Context, _, id string) (map[string]any, error) {
				return cached.readModel(ctx, rt, id)
			})
			if !want.Equal(got) {
				t.Errorf("%s %s: read through the cache differs:\n per object: %v\n cached:     %v", rt.TypeName, id, want, got)
			}
		}
		answered += len(ids) - (counter.gets() - before)
		compared++
	}
	t.Logf("%d types compared, %d reads answered from pages, %d types skipped (no object could be created)", compared, answered, skipped)
	if compared < 100 || answered < compared {
		t.Errorf("only %d types compared and %d reads answered from pages: the test proves little", compared, answered)
	}
}

// countingAPI counts GetResource calls.
type countingAPI struct {
	api
	mu sync.Mutex
	n  int
}

func (c *countingAPI) GetResource(ctx context.Context, in *cloudcontrol.GetResourceInput, opts ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceOutput, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.api.GetResource(ctx, in, opts...)
}

func (c *countingAPI) gets() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// resourceObjectType is the Terraform object type of a resource type's
// state.
func resourceObjectType(t *testing.T, typeName string, p *Provider) tftypes.Object {
	t.Helper()
	rt := p.Catalog().Type(typeName)
	r := &ccResource{t: rt}
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
}

// readState reads one object with read and converts it as Read does, from
// a null prior state.
func readState(ctx context.Context, t *testing.T, r *runtime, rt *cfnschema.ResourceType, ty tftypes.Object, id string,
	read func(ctx context.Context, typeName, id string) (map[string]any, error)) tftypes.Value {
	t.Helper()
	model, err := read(ctx, rt.TypeName, id)
	if err != nil {
		t.Fatalf("%s %s: %v", rt.TypeName, id, err)
	}
	v, err := stateFromJSON(rt.Attributes, ty, model, tftypes.NewValue(ty, nil))
	if err != nil {
		return tftypes.NewValue(tftypes.String, "error: "+err.Error())
	}
	return v
}

// createObjects creates up to diffObjects objects of typeName from a
// model synthesised from its schema and returns their identifiers.
func createObjects(ctx context.Context, t *testing.T, r *runtime, corpus, typeName string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(corpus, strings.ReplaceAll(typeName, "::", "_")+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range diffObjects {
		s := synth{doc: doc, n: i}
		desired := s.value(doc, 0)
		b, _ := json.Marshal(desired)
		out, err := r.api.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String(typeName), DesiredState: aws.String(string(b))})
		if err != nil {
			return ids
		}
		ev, err := r.await(ctx, out.ProgressEvent)
		var failed *requestFailedError
		if errors.As(err, &failed) {
			return ids
		}
		if err != nil {
			t.Fatalf("%s: %v", typeName, err)
		}
		ids = append(ids, aws.ToString(ev.Identifier))
	}
	return ids
}

// synth synthesises a minimal value of a schema node: required
// properties only, the first enum value, the least of bounds, and strings
// that differ between objects (n) and meet the node's pattern when one
// of a few candidates does.
type synth struct {
	doc map[string]any
	n   int
}

func (s synth) deref(node map[string]any) map[string]any {
	for range 8 {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		cur := any(s.doc)
		for _, step := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			m, _ := cur.(map[string]any)
			cur = m[step]
		}
		node, _ = cur.(map[string]any)
	}
	return node
}

func (s synth) value(node map[string]any, depth int) any {
	node = s.deref(node)
	if node == nil || depth > 6 {
		return s.str(nil)
	}
	if enum, ok := node["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if c, ok := node["const"]; ok {
		return c
	}
	ty, _ := node["type"].(string)
	if list, ok := node["type"].([]any); ok && len(list) > 0 {
		ty, _ = list[0].(string)
	}
	if ty == "" {
		for _, alt := range []string{"oneOf", "anyOf"} {
			if list, ok := node[alt].([]any); ok && len(list) > 0 {
				first, _ := list[0].(map[string]any)
				return s.value(first, depth+1)
			}
		}
		if _, ok := node["properties"]; ok {
			ty = "object"
		}
	}
	switch ty {
	case "object":
		out := map[string]any{}
		props, _ := node["properties"].(map[string]any)
		req, _ := node["required"].([]any)
		for _, r := range req {
			name, _ := r.(string)
			if sub, ok := props[name].(map[string]any); ok {
				out[name] = s.value(sub, depth+1)
			}
		}
		return out
	case "array":
		items, _ := node["items"].(map[string]any)
		n, _ := node["minItems"].(float64)
		out := []any{}
		for range max(int(n), 1) {
			out = append(out, s.value(items, depth+1))
		}
		return out
	case "integer", "number":
		if m, ok := node["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return false
	}
	return s.str(node)
}

func (s synth) str(node map[string]any) string {
	candidates := []string{fmt.Sprintf("cairn%d", s.n), fmt.Sprintf("Cairn%d", s.n), fmt.Sprint(100 + s.n),
		fmt.Sprintf("arn:aws:iam::123456789012:role/cairn%d", s.n), fmt.Sprintf("cairn-%d.example.com", s.n)}
	pattern, _ := node["pattern"].(string)
	re, err := regexp.Compile(pattern)
	if pattern == "" || err != nil {
		return candidates[0]
	}
	for _, c := range candidates {
		if re.MatchString(c) {
			return c
		}
	}
	return candidates[0]
}
