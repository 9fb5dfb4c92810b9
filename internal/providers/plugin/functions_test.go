package plugin

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
)

// TestFunctionsDeclared reads the functions of real providers from their
// schemas: time's (protocol 5, on the framework) and the test provider's
// (protocol 6), with its variadic, dynamic and unknown-accepting
// parameters.
func TestFunctionsDeclared(t *testing.T) {
	ctx := context.Background()
	time := launch(t, "time").GetProviderSchema(ctx)
	noErrors(t, "time schema", time.Diagnostics)
	for _, name := range []string{"rfc3339_parse", "duration_parse", "unix_timestamp_parse"} {
		if _, ok := time.Functions[name]; !ok {
			t.Errorf("time has no function %s; it has %v", name, keys(time.Functions))
		}
	}
	parse := time.Functions["rfc3339_parse"]
	if len(parse.Parameters) != 1 || parse.Parameters[0].Type != cty.String || !parse.Return.IsObjectType() {
		t.Errorf("rfc3339_parse: %+v", parse)
	}

	test := launchSelf(t).GetProviderSchema(ctx)
	noErrors(t, "cairntest schema", test.Diagnostics)
	join := test.Functions["join"]
	if join.VariadicParameter == nil || join.VariadicParameter.Type != cty.String || len(join.Parameters) != 1 {
		t.Errorf("join: %+v", join)
	}
	if echo := test.Functions["echo"]; echo.Return != cty.DynamicPseudoType || echo.Parameters[0].Type != cty.DynamicPseudoType {
		t.Errorf("echo: %+v", echo)
	}
	if d := test.Functions["describe"].Parameters[0]; !d.AllowUnknownValues || !d.AllowNullValue {
		t.Errorf("describe's parameter: %+v", d)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestCallFunction calls functions in real plugin processes, unconfigured
// as Terraform calls them, over protocols 5 and 6.
func TestCallFunction(t *testing.T) {
	timeP, test := launch(t, "time"), launchSelf(t)
	argAt := func(i int) *int { return &i }
	cases := map[string]struct {
		reason  string
		p       *Client
		name    string
		args    []cty.Value
		want    cty.Value
		wantErr *providers.FunctionError
	}{
		"time/unix_timestamp_parse": {
			reason: "protocol 5: a number in, an object out",
			p:      timeP, name: "unix_timestamp_parse", args: []cty.Value{cty.NumberIntVal(1690328596)},
		},
		"time/rfc3339_parse error": {
			reason: "a malformed timestamp is the provider's error at the argument",
			p:      timeP, name: "rfc3339_parse", args: []cty.Value{cty.StringVal("yesterday")},
			wantErr: &providers.FunctionError{Argument: argAt(0)},
		},
		"join/variadic": {
			reason: "each variadic argument travels as its own argument",
			p:      test, name: "join", args: []cty.Value{cty.StringVal("-"), cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")},
			want: cty.StringVal("a-b-c"),
		},
		"join/no variadic arguments": {
			p: test, name: "join", args: []cty.Value{cty.StringVal("-")}, want: cty.StringVal(""),
		},
		"echo/dynamic": {
			reason: "a dynamic parameter and result keep the value's type",
			p:      test, name: "echo", args: []cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.True})})},
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.True})}),
		},
		"describe/unknown": {
			reason: "an unknown argument reaches a parameter that allows it",
			p:      test, name: "describe", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.StringVal("unknown"),
		},
		"describe/null": {
			p: test, name: "describe", args: []cty.Value{cty.NullVal(cty.String)}, want: cty.StringVal("null"),
		},
		"check/argument error": {
			reason: "the provider names the argument at fault",
			p:      test, name: "check", args: []cty.Value{cty.NumberIntVal(-1)},
			wantErr: &providers.FunctionError{Text: "n must not be negative", Argument: argAt(0)},
		},
		"check/call error": {
			p: test, name: "check", args: []cty.Value{cty.NumberIntVal(0)},
			wantErr: &providers.FunctionError{Text: "zero is not a positive number"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := tc.p.CallFunction(context.Background(), providers.CallFunctionRequest{Name: tc.name, Arguments: tc.args})
			if tc.wantErr != nil {
				var fe *providers.FunctionError
				if !errors.As(resp.Err, &fe) {
					t.Fatalf("%s: got %v, %#v; want a function error", tc.reason, resp.Err, resp.Result)
				}
				if tc.wantErr.Text == "" {
					tc.wantErr.Text = fe.Text
				}
				if diff := cmp.Diff(tc.wantErr, fe); diff != "" {
					t.Errorf("%s: function error (-want +got):\n%s", tc.reason, diff)
				}
				return
			}
			if resp.Err != nil {
				t.Fatalf("%s: %v", tc.reason, resp.Err)
			}
			if tc.want != cty.NilVal && !tc.want.RawEquals(resp.Result) {
				t.Errorf("%s: got %#v, want %#v", tc.reason, resp.Result, tc.want)
			}
			if tc.want == cty.NilVal && (resp.Result.IsNull() || !resp.Result.IsWhollyKnown()) {
				t.Errorf("%s: got %#v", tc.reason, resp.Result)
			}
		})
	}
}

// TestCallFunctionAfterClose names the plugin and the function when the
// process is gone.
func TestCallFunctionAfterClose(t *testing.T) {
	c := launchSelf(t)
	_ = c.Close()
	resp := c.CallFunction(context.Background(), providers.CallFunctionRequest{Name: "join", Arguments: []cty.Value{cty.StringVal("-")}})
	var fe *providers.FunctionError
	if resp.Err == nil || errors.As(resp.Err, &fe) {
		t.Fatalf("got %v; want a failed call", resp.Err)
	}
	if want := "CallFunction (join)"; !contains(resp.Err.Error(), want) {
		t.Errorf("error %q does not name %q", resp.Err, want)
	}
}

// TestGetMetadata asks real plugins for their metadata (protocol 5.4 and
// 6.4): names without schemas, and the server capabilities.
func TestGetMetadata(t *testing.T) {
	ctx := context.Background()
	md, err := launch(t, "time").GetMetadata(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !md.GetProviderSchemaOptional || !has(md.Functions, "rfc3339_parse") || !has(md.ResourceTypes, "time_static") {
		t.Errorf("time: %+v", md)
	}
	md, err = launchSelf(t).GetMetadata(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !has(md.Functions, "join") || !has(md.ResourceTypes, "cairntest_thing") {
		t.Errorf("cairntest: %+v", md)
	}
	fs := launchSelf(t).GetFunctions(ctx)
	noErrors(t, "GetFunctions", fs.Diagnostics)
	if _, ok := fs.Functions["check"]; !ok || len(fs.Functions) != 4 {
		t.Errorf("GetFunctions: %v", keys(fs.Functions))
	}
}

func has(list []string, s string) bool { return slices.Contains(list, s) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
