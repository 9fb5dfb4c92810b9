package refactoring

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
)

// TestChainEdgesMatchPairs: the endpoint index finds exactly the pairs a
// comparison of every statement with every other finds, for endpoints of
// every kind (whole and instance, resource and module, nested paths).
func TestChainEdgesMatchPairs(t *testing.T) {
	eps := []string{
		"test_thing.a", "test_thing.a[0]", "test_thing.a[1]", `test_thing.a["x"]`, "test_thing.b",
		"module.m", "module.m[0]", "module.m[1]", "module.n", "module.m.test_thing.a", "module.m[0].test_thing.a",
		"module.m.module.c", "module.m.module.c[2]",
	}
	var stmts []Statement
	line := 1
	for _, from := range eps {
		for _, to := range eps {
			if from == to || strings.HasPrefix(from, "module.") != strings.HasPrefix(to, "module.") ||
				strings.Contains(from, "test_thing") != strings.Contains(to, "test_thing") {
				continue
			}
			stmts = append(stmts, stmt(t, nil, from, to, line))
			line++
		}
	}
	got := chainEdges(stmts)
	for i := range stmts {
		var want []int
		for j := range stmts {
			if chainsInto(stmts[i], stmts[j]) {
				want = append(want, j)
			}
		}
		if diff := cmp.Diff(want, got[i]); diff != "" {
			t.Errorf("successors of %s (-want +got):\n%s", stmts[i], diff)
		}
	}
}

// TestCyclesInSourceOrder: separate cycles are each reported once, in the
// order of their first statement, listing their statements in source
// order; a chain leading into a cycle is not part of it.
func TestCyclesInSourceOrder(t *testing.T) {
	stmts := []Statement{
		stmt(t, nil, "test_thing.x", "test_thing.y", 1),
		stmt(t, nil, "test_thing.p", "test_thing.a", 2), // leads into the a/b cycle
		stmt(t, nil, "test_thing.b", "test_thing.a", 3),
		stmt(t, nil, "test_thing.y", "test_thing.x", 4),
		stmt(t, nil, "test_thing.a", "test_thing.b", 5),
	}
	var got []string
	for _, d := range checkCycles(stmts) {
		got = append(got, cycleLines(d))
	}
	want := []string{"main.tf:1,1 main.tf:4,1", "main.tf:3,1 main.tf:5,1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
}

// cycleLines returns the positions a cycle diagnostic lists.
func cycleLines(d diags.Diagnostic) string {
	var pos []string
	for _, l := range strings.Split(d.Detail, "\n") {
		if rest, ok := strings.CutPrefix(l, "  - "); ok {
			pos = append(pos, rest[:strings.Index(rest, ": ")])
		}
	}
	return strings.Join(pos, " ")
}
