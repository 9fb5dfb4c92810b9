package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestStaticLocals(t *testing.T) {
	cases := map[string]struct {
		reason string
		expr   string
		want   cty.Value
	}{
		"literal":      {reason: "a literal is known", expr: `"abc"`, want: cty.StringVal("abc")},
		"variable":     {reason: "a variable's value is known", expr: `var.pass`, want: cty.StringVal("from-var")},
		"chained":      {reason: "a local of a local of a variable is known", expr: `upper(local.b)`, want: cty.StringVal("FROM-VAR!")},
		"resource":     {reason: "a resource attribute is only known while planning", expr: `terraform_data.x.output`, want: cty.DynamicVal},
		"from_unknown": {reason: "a local of an unknown local is unknown", expr: `local.resource`, want: cty.DynamicVal},
		"unset":        {reason: "a local of a variable with no value keeps its mark, to name it", expr: `"${var.unset}!"`, want: cty.UnknownVal(cty.String).RefineNotNull().Mark(encryption.NoValue{Variable: "unset"})},
	}
	locals := map[string]*configs.Local{
		"b":        {Name: "b", Expr: parseExpr(t, `"${var.pass}!"`)},
		"resource": {Name: "resource", Expr: parseExpr(t, `terraform_data.x.output`)},
	}
	for name, tc := range cases {
		locals[name] = &configs.Local{Name: name, Expr: parseExpr(t, tc.expr)}
	}
	m := &Meta{Dir: t.TempDir(), Streams: Streams{Now: time.Now}}
	base := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{
			"pass": cty.StringVal("from-var"), "unset": cty.DynamicVal.Mark(encryption.NoValue{Variable: "unset"}),
		})},
		Functions: m.funcTable(true),
	}
	got := staticLocals(locals, base)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if v := got.GetAttr(name); !v.RawEquals(tc.want) {
				t.Errorf("%s: got %#v, want %#v", tc.reason, v, tc.want)
			}
		})
	}
}

// TestErroredStateEncrypted: the emergency copy of an apply's state is
// encrypted as the state file would be.
func TestErroredStateEncrypted(t *testing.T) {
	f, diags := hclsyntax.ParseConfig([]byte(`key_provider "pbkdf2" "k" {
  passphrase    = "errored-state-passphrase"
  hash_function = "sha256"
  iterations    = 200000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cfg, diags := encryption.Decode(f.Body, hcl.Range{}, "", nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	st := states.NewState()
	st.Outputs["secret"] = &states.OutputValue{Value: cty.StringVal("errored-secret")}
	path := filepath.Join(t.TempDir(), erroredStateFile)
	if err := writeErroredState(path, &statefile.File{Serial: 4, Lineage: "l", State: st}, cfg.StateTarget()); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !encryption.IsEnvelope(src) || strings.Contains(string(src), "errored-secret") {
		t.Fatalf("errored.tfstate is not encrypted:\n%s", src)
	}
	plain, err := cfg.StateTarget().Decrypt(src)
	if err != nil || !strings.Contains(string(plain), "errored-secret") {
		t.Errorf("errored.tfstate does not decrypt to the state: %v", err)
	}
}

func parseExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return expr
}
