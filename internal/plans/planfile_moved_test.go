package plans

import (
	"bytes"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestPlanFileKeepsMoves: a change's previous address and the forget
// action survive a plan file; a change that did not move reads back with
// its own address as the previous one.
func TestPlanFileKeepsMoves(t *testing.T) {
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	addr := func(s string) addrs.AbsResourceInstance {
		a, ds := addrs.ParseAbsResourceInstanceStr(s)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		return a
	}
	tests := map[string]struct {
		change   *ResourceInstanceChange
		wantPrev string
		moved    bool
	}{
		"Moved":     {change: &ResourceInstanceChange{Addr: addr(`module.m["k"].terraform_data.b[1]`), PrevRunAddr: addr("terraform_data.a"), Action: NoOp}, wantPrev: "terraform_data.a", moved: true},
		"NotMoved":  {change: &ResourceInstanceChange{Addr: addr("terraform_data.b"), PrevRunAddr: addr("terraform_data.b"), Action: Update}, wantPrev: "terraform_data.b"},
		"ZeroPrev":  {change: &ResourceInstanceChange{Addr: addr("terraform_data.b"), Action: Create}, wantPrev: "terraform_data.b"},
		"Forgotten": {change: &ResourceInstanceChange{Addr: addr("terraform_data.f"), PrevRunAddr: addr("terraform_data.f"), Action: Forget}, wantPrev: "terraform_data.f"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tc.change.Provider = prov
			tc.change.Before, tc.change.After = cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.DynamicPseudoType)
			var buf bytes.Buffer
			var moves []Move
			if tc.moved {
				moves = []Move{{From: tc.change.PrevRunAddr, To: tc.change.Addr}}
			}
			if err := WriteFile(&buf, &Plan{Changes: []*ResourceInstanceChange{tc.change}, Moves: moves, Graph: &Graph{}}); err != nil {
				t.Fatal(err)
			}
			p, err := ReadFile(&buf)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Changes[0]
			if diff := cmp.Diff(tc.wantPrev, got.PrevRunAddr.String()); diff != "" {
				t.Errorf("previous address -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantPrev, p.PrevRunAddrs()(tc.change.Addr).String()); diff != "" {
				t.Errorf("plan's moves: previous address -want +got:\n%s", diff)
			}
			if got.Moved() != tc.moved || got.Action != tc.change.Action {
				t.Errorf("Moved() = %v, action %s; want %v, %s", got.Moved(), got.Action, tc.moved, tc.change.Action)
			}
		})
	}
}
