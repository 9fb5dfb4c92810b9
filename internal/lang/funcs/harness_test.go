package funcs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// secretText is the plaintext of every sensitive test variable. No error
// message may ever contain it.
const secretText = "hunter2"

func sens(v cty.Value) cty.Value { return v.Mark(configschema.SensitiveMark) }

// testVars are the variables every test expression can refer to.
func testVars() map[string]cty.Value {
	return map[string]cty.Value{
		"unknown_str":  cty.UnknownVal(cty.String),
		"unknown_num":  cty.UnknownVal(cty.Number),
		"unknown_bool": cty.UnknownVal(cty.Bool),
		"unknown_list": cty.UnknownVal(cty.List(cty.String)),
		"unknown_map":  cty.UnknownVal(cty.Map(cty.String)),
		"unknown_any":  cty.DynamicVal,

		"secret":             sens(cty.StringVal(secretText)),
		"secret_num":         sens(cty.NumberIntVal(42)),
		"secret_unknown":     sens(cty.UnknownVal(cty.String)),
		"secret_unknown_num": sens(cty.UnknownVal(cty.Number)),
		"secret_list":        sens(cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})),
		"list_of_secrets": cty.ListVal([]cty.Value{
			sens(cty.StringVal(secretText)), cty.StringVal("b"),
		}),
		"strs":       cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")}),
		"empty_strs": cty.ListValEmpty(cty.String),
		"str_map":    cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("y")}),
		"null_str":   cty.NullVal(cty.String),
	}
}

// exprCase is one call of the function table through hcl, the way the
// engine calls it. want is compared with RawEquals, so types, unknown
// refinements and marks all count. A non-empty wantErr is a substring the
// diagnostics must contain; the call must then fail.
type exprCase struct {
	reason  string
	expr    string
	want    cty.Value
	wantErr string
}

// runExprCases evaluates each case's expression with tbl and testVars, and
// checks every error message for the secret.
func runExprCases(t *testing.T, tbl map[string]function.Function, cases map[string]exprCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, diags := evalExpr(t, tbl, tc.expr)
			if msg := diags.Error(); strings.Contains(msg, secretText) {
				t.Fatalf("%s\n%s: error reveals the sensitive value: %s", tc.reason, tc.expr, msg)
			}
			if tc.wantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("%s\n%s: got %#v, want an error containing %q", tc.reason, tc.expr, got, tc.wantErr)
				}
				if msg := diags.Error(); !strings.Contains(msg, tc.wantErr) {
					t.Errorf("%s\n%s: error %q does not contain %q", tc.reason, tc.expr, msg, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("%s\n%s: unexpected error: %s", tc.reason, tc.expr, diags.Error())
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("%s\n%s: wrong result (-want +got):\n%s", tc.reason, tc.expr, cmp.Diff(tc.want.GoString(), got.GoString()))
			}
		})
	}
}

func evalExpr(t *testing.T, tbl map[string]function.Function, src string) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing %s: %s", src, diags.Error())
	}
	return expr.Value(&hcl.EvalContext{Variables: testVars(), Functions: tbl})
}

func strList(ss ...string) cty.Value {
	if len(ss) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(ss))
	for i, s := range ss {
		vals[i] = cty.StringVal(s)
	}
	return cty.ListVal(vals)
}

func num(n int64) cty.Value { return cty.NumberIntVal(n) }
