package eval

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
)

// countingServer counts the CallFunction requests that reach the provider.
type countingServer struct {
	tfprotov6.ProviderServer
	calls *atomic.Int64
}

func (s countingServer) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	s.calls.Add(1)
	return s.ProviderServer.CallFunction(ctx, req)
}

// cairntestLibrary is a library holding the cairntest provider, run in
// process on the framework, counting the calls that reach it.
func cairntestLibrary(tb testing.TB) (*providers.Library, *atomic.Int64) {
	tb.Helper()
	calls := &atomic.Int64{}
	p, err := addrs.ParseProviderSource(cairntest.Address)
	if err != nil {
		tb.Fatal(err)
	}
	lib := providers.NewLibrary(providers.Registry{p: func() (providers.Interface, error) {
		return tfproto6.New(countingServer{cairntest.NewServer(), calls}), nil
	}})
	tb.Cleanup(func() { _ = lib.Close() })
	return lib, calls
}

// loadFiles loads a module tree from files by path.
func loadFiles(tb testing.TB, files map[string]string) *configs.Module {
	tb.Helper()
	src := map[string][]byte{}
	for n, s := range files {
		src[n] = []byte(s)
	}
	cfg, ds := configs.LoadFiles(".", src)
	if ds.HasErrors() {
		tb.Fatal(ds.Err())
	}
	return cfg
}

// functionTables builds the tables of a root module (main.tf) and its
// children over the cairntest provider (see cairntestLibrary).
func functionTables(tb testing.TB, files map[string]string) (*FunctionTables, *configs.Module, *atomic.Int64) {
	tb.Helper()
	cfg := loadFiles(tb, files)
	lib, calls := cairntestLibrary(tb)
	tables, tds := NewFunctionTables(context.Background(), cfg, funcs.Table("."), lib)
	if tds.HasErrors() {
		tb.Fatal(tds.Err())
	}
	tb.Cleanup(tables.Close)
	return tables, cfg, calls
}

const cairntestRoot = `terraform {
  required_providers {
    ct = { source = "cairn/cairntest" }
  }
}
module "m" { source = "./m" }
locals {
  x = provider::ct::join("-", "a")
}
`

// TestProviderFunctionCalls evaluates calls of a real provider's
// functions through the module's table: what reaches the provider, what
// the engine answers itself (unknown and null arguments), marks, and
// where errors are reported.
func TestProviderFunctionCalls(t *testing.T) {
	tables, cfg, calls := functionTables(t, map[string]string{"main.tf": cairntestRoot, "m/main.tf": ""})
	vars := map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{
		"n":      cty.UnknownVal(cty.Number),
		"s":      cty.UnknownVal(cty.String),
		"holder": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
	})}
	cases := map[string]struct {
		reason    string
		expr      string
		want      cty.Value
		wantCalls int64
		wantDiag  string // "SUMMARY at COLUMN"
	}{
		"variadic": {
			expr: `provider::ct::join("-", "a", "b", "c")`, want: cty.StringVal("a-b-c"), wantCalls: 1},
		"unknown argument": {
			reason: "a parameter that takes no unknowns: unknown result, no call",
			expr:   `provider::ct::check(var.n)`, want: cty.UnknownVal(cty.Number)},
		"nested unknown argument": {
			reason: "an argument holding an unknown counts as unknown, as Terraform promises providers",
			expr:   `provider::ct::echo(var.holder)`, want: cty.DynamicVal},
		"unknown allowed": {
			reason: "a parameter that takes unknowns gets one",
			expr:   `provider::ct::describe(var.s)`, want: cty.StringVal("unknown"), wantCalls: 1},
		"null allowed": {
			expr: `provider::ct::describe(null)`, want: cty.StringVal("null"), wantCalls: 1},
		"null refused": {
			reason: "the engine refuses a null before any call",
			expr:   `provider::ct::check(null)`, wantDiag: "Invalid function argument at 21"},
		"sensitive argument": {
			reason: "the result carries the argument's mark",
			expr:   `provider::ct::check(sensitive(3))`, want: cty.NumberIntVal(3).Mark(configschema.SensitiveMark), wantCalls: 1},
		"error at the argument": {
			expr: `provider::ct::join("-", "x", provider::ct::check(-1))`, wantDiag: "Invalid function argument at 50", wantCalls: 1},
		"error of the call": {
			expr: `provider::ct::check(0)`, wantDiag: "Error in function call at 1", wantCalls: 1},
		"hidden sensitive error": {
			reason: "an error from a call with a sensitive argument does not repeat the provider's text",
			expr:   `provider::ct::check(sensitive(-1))`, wantDiag: "Invalid function argument at 21", wantCalls: 1},
	}
	ctx := &hcl.EvalContext{Functions: tables.For(cfg), Variables: vars}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			calls.Store(0)
			expr := parseExpr(t, tc.expr)
			got, hds := expr.Value(ctx)
			if tc.wantDiag != "" {
				if !hds.HasErrors() {
					t.Fatalf("%s: got %#v, want an error", tc.reason, got)
				}
				d := hds[0]
				if at := fmt.Sprintf("%s at %d", d.Summary, d.Subject.Start.Column); at != tc.wantDiag {
					t.Errorf("%s: got %q (%s), want %q", tc.reason, at, d.Detail, tc.wantDiag)
				}
				if name == "hidden sensitive error" && !strings.Contains(d.Detail, "hidden") {
					t.Errorf("the detail shows the provider's text: %s", d.Detail)
				}
			} else {
				if hds.HasErrors() {
					t.Fatalf("%s: %s", tc.reason, hds.Error())
				}
				if !tc.want.RawEquals(got) {
					t.Errorf("%s: got %#v, want %#v", tc.reason, got, tc.want)
				}
			}
			if n := calls.Load(); n != tc.wantCalls {
				t.Errorf("%s: %d calls reached the provider, want %d", tc.reason, n, tc.wantCalls)
			}
		})
	}
}

// TestFunctionTablesPerModule gives each module the functions of the
// providers it declares, under its own local names, and shares the run's
// table with modules that call none.
func TestFunctionTablesPerModule(t *testing.T) {
	child := `terraform {
  required_providers {
    other = { source = "cairn/cairntest" }
  }
}
locals {
  y = provider::other::join("+", "b")
}
module "quiet" { source = "./q" }
`
	tables, cfg, _ := functionTables(t, map[string]string{"main.tf": cairntestRoot, "m/main.tf": child, "m/q/main.tf": ""})
	root, m := tables.For(cfg), tables.ForPath(addrs.Module{"m"})
	for _, c := range []struct {
		tbl  map[string]function.Function
		name string
		want bool
	}{
		{root, "provider::ct::join", true}, {root, "provider::other::join", false},
		{m, "provider::other::join", true}, {m, "provider::ct::join", false},
		{m, "upper", true},
	} {
		if _, ok := c.tbl[c.name]; ok != c.want {
			t.Errorf("%s in table: %v, want %v", c.name, ok, c.want)
		}
	}
	base := funcsPointer(tables.base)
	if got := funcsPointer(tables.ForPath(addrs.Module{"m", "quiet"})); got != base {
		t.Error("a module that calls no provider function got a table of its own")
	}
	if funcsPointer(root) == base {
		t.Error("the root shares the base table")
	}
}

func funcsPointer(m map[string]function.Function) uintptr { return reflect.ValueOf(m).Pointer() }

// parseExpr parses one expression of test.tf's first line.
func parseExpr(tb testing.TB, src string) hcl.Expression {
	tb.Helper()
	expr, ds := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if ds.HasErrors() {
		tb.Fatal(ds.Error())
	}
	return expr
}

// TestFunctionTablesJSON gives a module whose JSON file calls a provider
// function its table: the loader finds calls in native files only.
func TestFunctionTablesJSON(t *testing.T) {
	child := `{
  "terraform": {"required_providers": {"ct": {"source": "cairn/cairntest"}}},
  "output": {"j": {"value": "${provider::ct::join(\"-\", \"a\", \"b\")}"}}
}`
	tables, _, _ := functionTables(t, map[string]string{"main.tf": `module "m" { source = "./m" }`, "m/main.tf.json": child})
	if _, ok := tables.ForPath(addrs.Module{"m"})["provider::ct::join"]; !ok {
		t.Error("the JSON module's table lacks provider::ct::join")
	}
}

// TestProviderFunctionsConcurrent calls functions from many goroutines at
// once, as a walk does: one instance serves them all, and Close releases
// it.
func TestProviderFunctionsConcurrent(t *testing.T) {
	cfg := loadFiles(t, map[string]string{"main.tf": cairntestRoot, "m/main.tf": ""})
	p, _ := addrs.ParseProviderSource(cairntest.Address)
	var started atomic.Int64
	lib := providers.NewLibrary(providers.Registry{p: func() (providers.Interface, error) {
		started.Add(1)
		return tfproto6.New(cairntest.NewServer()), nil
	}})
	defer lib.Close()
	tables, ds := NewFunctionTables(context.Background(), cfg, funcs.Table("."), lib)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	expr := parseExpr(t, `provider::ct::join("-", "a", "b")`)
	ctx := &hcl.EvalContext{Functions: tables.For(cfg)}
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, hds := expr.Value(ctx)
			if hds.HasErrors() || !v.RawEquals(cty.StringVal("a-b")) {
				errs <- fmt.Errorf("%#v, %v", v, hds)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	tables.Close()
	if n := started.Load(); n != 1 {
		t.Errorf("%d instances started, want 1", n)
	}
	if _, hds := expr.Value(ctx); !hds.HasErrors() {
		t.Error("a call after Close succeeded")
	}
}
