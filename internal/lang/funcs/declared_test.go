package funcs

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestDeclared: Declared has Table's functions, with the signatures their
// families declare rather than the pass-through ones of Table's wrapper
// (whose result is of any type).
func TestDeclared(t *testing.T) {
	dir := t.TempDir()
	declared, table := Declared(dir), Table(dir)
	if diff := cmp.Diff(slices.Sorted(maps.Keys(table)), slices.Sorted(maps.Keys(declared))); diff != "" {
		t.Errorf("Declared's names differ from Table's (-table +declared):\n%s", diff)
	}
	for _, name := range []string{"join", "core::join"} {
		got, err := declared[name].ReturnType([]cty.Type{cty.String, cty.List(cty.String)})
		if err != nil || !got.Equals(cty.String) {
			t.Errorf("Declared()[%q] returns %#v, %v; want string", name, got, err)
		}
		if p := declared[name].VarParam(); p == nil || !p.Type.Equals(cty.List(cty.String)) || p.AllowNull {
			t.Errorf("Declared()[%q]'s variadic parameter is %+v; want a list of strings, not nullable", name, p)
		}
	}
	if got, _ := table["join"].ReturnType([]cty.Type{cty.String, cty.List(cty.String)}); got != cty.DynamicPseudoType {
		t.Errorf("Table()[join] returns %#v; the wrapper's result is of any type, which is why Declared exists", got)
	}
}
