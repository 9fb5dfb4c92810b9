package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/refactoring"
	"github.com/google/go-cmp/cmp"
)

// TestTargetContainsInstance pins which instances a target covers.
func TestTargetContainsInstance(t *testing.T) {
	tests := []struct {
		target, inst string
		want         bool
	}{
		{"terraform_data.a", "terraform_data.a[3]", true},
		{"terraform_data.a[3]", "terraform_data.a[3]", true},
		{"terraform_data.a[3]", "terraform_data.a[2]", false},
		{"module.m", `module.m["k"].terraform_data.a`, true},
		{`module.m["k"]`, `module.m["j"].terraform_data.a`, false},
		{"module.m.terraform_data.a", "module.m[1].terraform_data.a", true},
		{"module.m", "module.m.module.n.terraform_data.a", true},
		{"module.m.terraform_data.a", "module.m.module.n.terraform_data.a", false},
		{"terraform_data.a", "module.m.terraform_data.a", false},
	}
	for _, tc := range tests {
		tg, inst := parseTargets(t, []string{tc.target})[0], parseInstance(t, tc.inst)
		if got := tg.ContainsInstance(inst); got != tc.want {
			t.Errorf("%s contains %s = %t, want %t", tc.target, tc.inst, got, tc.want)
		}
	}
}

// TestMovesOutsideTargets pins which moved addresses -target must cover.
func TestMovesOutsideTargets(t *testing.T) {
	inst := func(s string) addrs.AbsResourceInstance { return parseInstance(t, s) }
	moves := []refactoring.Change{{From: inst("terraform_data.a"), To: inst("terraform_data.b")}, {From: inst("module.m.terraform_data.x"), To: inst("module.n.terraform_data.x")}}
	tests := map[string]struct {
		targets []string
		want    []string
	}{
		"unrelated target":   {[]string{"terraform_data.c"}, []string{"terraform_data.a", "terraform_data.b", "module.m.terraform_data.x", "module.n.terraform_data.x"}},
		"one side covered":   {[]string{"terraform_data.b", "module.m"}, []string{"terraform_data.a", "module.n.terraform_data.x"}},
		"everything covered": {[]string{"terraform_data.a", "terraform_data.b", "module.m", "module.n"}, nil},
	}
	for name, tc := range tests {
		var got []string
		for _, a := range movesOutsideTargets(parseTargets(t, tc.targets), moves) {
			got = append(got, a.String())
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: -want +got:\n%s", name, diff)
		}
	}
}
