package plans

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func graphPlan() *Plan {
	res, _ := addrs.ParseAbsResourceStr("terraform_data.a")
	inst := res.Instance(addrs.StringKey("k"))
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	p := &Plan{
		Changes: []*ResourceInstanceChange{{
			Addr: inst, Provider: prov, Action: CreateThenDelete,
			Before: cty.NullVal(cty.DynamicPseudoType), After: cty.StringVal("x"),
		}},
		Outputs: []*OutputChange{{Name: "o", Action: Delete, Before: cty.StringVal("v"), After: cty.NullVal(cty.DynamicPseudoType)}},
		Expansions: []*ResourceExpansion{{Addr: res, Expansion: instances.ForEachExpansion(map[string]cty.Value{
			"k": cty.UnknownVal(cty.String), "j": cty.StringVal("known").Mark("sensitive"),
		})}},
		Checks: []*CheckResult{{
			Addr:   addrs.Check{Name: "c"}.Absolute(addrs.ModuleInstance{{Name: "m", Key: addrs.StringKey("k")}}),
			Status: CheckFail, Problems: []string{"it failed"},
		}},
		Graph: &Graph{},
	}
	g := p.Graph
	pr := g.Add(Node{Op: OpConfigureProvider, Ref: g.AddProvider(prov)})
	l := g.Add(Node{Op: OpEvalLocal, Ref: g.AddLocal(addrs.LocalValue{Name: "l"}.Absolute(addrs.ModuleInstance{{Name: "m", Key: addrs.IntKey(1)}})), Deps: []int{pr}})
	r := g.AddResource(res)
	e := g.Add(Node{Op: OpExpand, Ref: r, Deps: []int{l}})
	c := g.Add(Node{Op: OpDeposeAndCreate, Ref: 0, Deposed: "0badcafe", Deps: []int{pr, e}})
	g.Add(Node{Op: OpJoinResource, Ref: r, Deps: []int{e, c}})
	g.Add(Node{Op: OpDeleteDeposed, Ref: 0, Deposed: "0badcafe", Deps: []int{c}})
	g.Add(Node{Op: OpRemoveOutput, Ref: 0})
	g.Add(Node{Op: OpCheckAssertions, Ref: 0, Deps: []int{c}})
	// An ephemeral resource: expand, open, join (nodes 8 to 10).
	er := g.AddResource(addrs.Resource{Mode: addrs.EphemeralResourceMode, Type: "random_password", Name: "p"}.Absolute(addrs.RootModuleInstance))
	ee := g.Add(Node{Op: OpExpand, Ref: er, Deps: []int{pr}})
	eo := g.Add(Node{Op: OpOpenEphemeral, Ref: er, Deps: []int{ee}})
	g.Add(Node{Op: OpJoinResource, Ref: er, Deps: []int{eo}})
	return p
}

// TestPlanFileKeepsTheProgram: the operation graph, its operands, the
// check results and the recorded expansions (unknown and sensitive each.value included) survive a
// plan file unchanged.
func TestPlanFileKeepsTheProgram(t *testing.T) {
	want := graphPlan()
	var buf bytes.Buffer
	if err := WriteFile(&buf, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Graph.Nodes, got.Graph.Nodes); diff != "" {
		t.Errorf("nodes: -want +got:\n%s", diff)
	}
	for i := range want.Graph.Nodes {
		if a, b := want.NodeName(i), got.NodeName(i); a != b {
			t.Errorf("node %d is %q, was %q", i, b, a)
		}
	}
	if diff := cmp.Diff(want.Checks, got.Checks); diff != "" {
		t.Errorf("checks: -want +got:\n%s", diff)
	}
	if len(got.Expansions) != 1 || !got.Expansions[0].Addr.Equal(want.Expansions[0].Addr) {
		t.Fatalf("expansions: %+v", got.Expansions)
	}
	ge, we := got.Expansions[0].Expansion, want.Expansions[0].Expansion
	if ge.Mode() != we.Mode() || !ge.SameKeys(we) || ge.WhollyKnown() {
		t.Errorf("expansion changed: %+v", ge)
	}
	for _, k := range we.EachKeys() {
		wv, _ := we.EachValue(k)
		gv, _ := ge.EachValue(k)
		if !gv.RawEquals(wv) {
			t.Errorf("each.value[%q] = %#v, want %#v", k, gv, wv)
		}
	}
}

// TestPlanFileRefusesBadGraphs: an index out of range, an unknown
// operation or a deposed key where none belongs makes the file corrupt
// instead of reaching apply.
func TestPlanFileRefusesBadGraphs(t *testing.T) {
	cases := map[string]func(p *Plan){
		"ChangeOutOfRange":     func(p *Plan) { p.Graph.Nodes[3].Ref = 7 },
		"OutputOutOfRange":     func(p *Plan) { p.Graph.Nodes[6].Ref = 3 },
		"ResourceOutOfRange":   func(p *Plan) { p.Graph.Nodes[2].Ref = -1 },
		"CheckOutOfRange":      func(p *Plan) { p.Graph.Nodes[7].Ref = 1 },
		"OpenOutOfRange":       func(p *Plan) { p.Graph.Nodes[9].Ref = 2 },
		"CheckStatusUnknown":   func(p *Plan) { p.Checks[0].Status = 9 },
		"DependencyOutOfRange": func(p *Plan) { p.Graph.Nodes[0].Deps = []int{99} },
		"UnknownOp":            func(p *Plan) { p.Graph.Nodes[0].Op = '!' },
		"DeposedOnCreate":      func(p *Plan) { p.Graph.Nodes[3].Op = OpCreate },
		"MissingDeposedKey":    func(p *Plan) { p.Graph.Nodes[5].Deposed = addrs.NotDeposed },
		"BadDeposedKey":        func(p *Plan) { p.Graph.Nodes[5].Deposed = "nothex!!" },
	}
	for name, corrupt := range cases {
		t.Run(name, func(t *testing.T) {
			p := graphPlan()
			corrupt(p)
			var buf bytes.Buffer
			if err := WriteFile(&buf, p); err != nil {
				t.Fatal(err)
			}
			_, err := ReadFile(&buf)
			if err == nil || !strings.Contains(err.Error(), "plan file is corrupt") {
				t.Errorf("ReadFile error = %v, want a corrupt plan file", err)
			}
		})
	}
}

// TestPlanFileRefusesOldFormat: a plan file from before operations were
// recorded is refused with a message saying so.
func TestPlanFileRefusesOldFormat(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFile(&buf, graphPlan()); err != nil {
		t.Fatal(err)
	}
	old := bytes.Replace(gunzip(t, buf.Bytes()), []byte("cairn-plan-v2"), []byte("cairn-plan-v1"), 1)
	_, err := ReadFile(bytes.NewReader(gzipBytes(t, old)))
	if err == nil || !strings.Contains(err.Error(), "incompatible version") {
		t.Errorf("error = %v", err)
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
