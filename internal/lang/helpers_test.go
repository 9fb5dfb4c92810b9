package lang

import (
	"fmt"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
}

// fakeData is a small lang.Data: fixed values, an error diagnostic for an
// unknown variable (as the real table reports), and a count of questions.
type fakeData struct {
	vars      map[string]cty.Value
	locals    map[string]cty.Value
	resources map[addrs.Resource]cty.Value
	modules   map[string]cty.Value

	mu    sync.Mutex
	asked map[string]int
}

var _ Data = (*fakeData)(nil)

func (d *fakeData) ask(what string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.asked == nil {
		d.asked = map[string]int{}
	}
	d.asked[what]++
}

func (d *fakeData) InputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	d.ask(addr.String())
	if v, ok := d.vars[addr.Name]; ok {
		return v, nil
	}
	return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared input variable", "")}
}

func (d *fakeData) ModuleCall(addr addrs.ModuleCall, _ hcl.Range) (cty.Value, diags.Diagnostics) {
	if v, ok := d.modules[addr.Name]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

func (d *fakeData) LocalValue(addr addrs.LocalValue, _ hcl.Range) (cty.Value, diags.Diagnostics) {
	d.ask(addr.String())
	if v, ok := d.locals[addr.Name]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

func (d *fakeData) Resource(addr addrs.Resource, _ hcl.Range) (cty.Value, diags.Diagnostics) {
	d.ask(addr.String())
	if v, ok := d.resources[addr]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

var testFuncs = map[string]function.Function{
	"upper":  stdlib.UpperFunc,
	"length": stdlib.LengthFunc,
}

// diagView is what the tests compare of a diagnostic: severity, summary
// and where its subject starts.
type diagView struct {
	Severity diags.Severity
	Summary  string
	At       string
}

func errAt(summary, at string) diagView { return diagView{diags.Error, summary, at} }

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

func parseExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, ds := hclsyntax.ParseExpression([]byte(src), "main.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatalf("parsing %q: %s", src, ds.Error())
	}
	return expr
}

func parseBody(t *testing.T, src string) hcl.Body {
	t.Helper()
	f, ds := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatalf("parsing test source: %s", ds.Error())
	}
	return f.Body
}
