package eval

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
}

// diagView is what the tests compare of a diagnostic: severity, summary
// and where its subject starts ("main.tf:3:7", or "" without one).
type diagView struct {
	Severity diags.Severity
	Summary  string
	At       string
}

func errAt(summary, at string) diagView  { return diagView{diags.Error, summary, at} }
func warnAt(summary, at string) diagView { return diagView{diags.Warning, summary, at} }

func viewDiags(ds diags.Diagnostics) []diagView {
	var out []diagView
	for _, d := range ds {
		at := ""
		if d.Subject != nil {
			at = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, diagView{d.Severity, d.Summary, at})
	}
	return out
}

// loadModule loads main.tf from src, failing the test on any diagnostic.
func loadModule(t *testing.T, src string) *configs.Module {
	t.Helper()
	mod, ds := configs.LoadFiles(".", map[string][]byte{"main.tf": []byte(src)})
	if len(ds) > 0 {
		t.Fatalf("loading test configuration: %s", ds.Error())
	}
	return mod
}

// fileVar is a variable value from a .tfvars file.
func fileVar(t *testing.T, src string) RawVariable {
	t.Helper()
	expr, ds := hclsyntax.ParseExpression([]byte(src), "terraform.tfvars", hcl.Pos{Line: 1, Column: 5, Byte: 4})
	if ds.HasErrors() {
		t.Fatalf("parsing %q: %s", src, ds.Error())
	}
	return RawVariable{Source: FromFile, Expr: expr, Origin: "terraform.tfvars"}
}

func cliVar(raw string) RawVariable {
	return RawVariable{Source: FromCLI, Raw: raw, Origin: "-var"}
}

func envVar(name, raw string) RawVariable {
	return RawVariable{Source: FromEnv, Raw: raw, Origin: "TF_VAR_" + name}
}
