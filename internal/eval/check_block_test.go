package eval

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestCheckAssertions: a check's status is the worst of its assertions';
// a false assertion is a warning with the author's message, an invalid one
// an error, and one not known yet a warning only while planning.
func TestCheckAssertions(t *testing.T) {
	vars := map[string]cty.Value{"n": cty.NumberIntVal(1), "unknown": cty.UnknownVal(cty.Number)}
	type rule struct{ cond, msg string }
	const unknownDetail = "The condition could not be evaluated at this time, a result will be known when this plan is applied."
	cases := map[string]struct {
		reason       string
		rules        []rule
		planning     bool
		wantStatus   plans.CheckStatus
		wantProblems []string
		want         []checkView
	}{
		"AllPass": {
			rules:      []rule{{`var.n == 1`, `"m"`}, {`var.n < 2`, `"m"`}},
			wantStatus: plans.CheckPass,
		},
		"FalseIsAWarning": {
			rules:        []rule{{`var.n == 1`, `"m"`}, {`var.n > 2`, `"n is ${var.n}."`}},
			wantStatus:   plans.CheckFail,
			wantProblems: []string{"n is 1."},
			want:         []checkView{failed(warnAt("Check block assertion failed", "main.tf:1:1"), "n is 1.", "var.n is 1")},
		},
		"UnknownWhilePlanning": {
			rules:      []rule{{`var.unknown > 2`, `"m"`}},
			planning:   true,
			wantStatus: plans.CheckUnknown,
			want:       []checkView{failed(warnAt("Check block assertion known after apply", "main.tf:1:1"), unknownDetail, "var.unknown is a number")},
		},
		"UnknownAfterApplyIsSilent": {
			reason:     "apply has no later point to decide it at, and Terraform says nothing",
			rules:      []rule{{`var.unknown > 2`, `"m"`}},
			wantStatus: plans.CheckUnknown,
		},
		"FailOutweighsUnknown": {
			rules:        []rule{{`var.unknown > 2`, `"m"`}, {`var.n > 2`, `"no"`}},
			wantStatus:   plans.CheckFail,
			wantProblems: []string{"no"},
			want:         []checkView{failed(warnAt("Check block assertion failed", "main.tf:1:1"), "no", "var.n is 1")},
		},
		"InvalidIsAnError": {
			rules:        []rule{{`var.n > 2`, `"no"`}, {`"x"`, `"m"`}},
			wantStatus:   plans.CheckError,
			wantProblems: []string{"no"},
			want: []checkView{
				failed(warnAt("Check block assertion failed", "main.tf:1:1"), "no", "var.n is 1"),
				failed(errAt("Invalid condition result", "main.tf:1:1"), "Invalid condition result value: a bool is required."),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := &configs.Check{Name: "c"}
			for _, r := range tc.rules {
				c.Asserts = append(c.Asserts, conditionRule(t, r.cond, r.msg))
			}
			env := &Env{Values: namedvals.New(vars), Funcs: funcs.Table("."), ModuleDir: "."}
			status, problems, ds := env.CheckAssertions(c, addrs.RootModuleInstance, tc.planning)
			if status != tc.wantStatus {
				t.Errorf("%s\nstatus = %s, want %s", tc.reason, status, tc.wantStatus)
			}
			if diff := cmp.Diff(tc.wantProblems, problems); diff != "" {
				t.Errorf("%s\nproblems -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, viewChecks(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestScopedDataFailed: a failed scoped read's errors become warnings and
// the check's problems, "summary: detail"; its warnings stay as they are.
func TestScopedDataFailed(t *testing.T) {
	in := diags.Diagnostics{
		{Severity: diags.Warning, Summary: "W", Detail: "w."},
		{Severity: diags.Error, Summary: "Unable to find remote state", Detail: "No stored state."},
	}
	got, problems := ScopedDataFailed(in)
	if got.HasErrors() {
		t.Errorf("errors left: %s", got)
	}
	if in[1].Severity != diags.Error {
		t.Error("the input diagnostics were changed")
	}
	if diff := cmp.Diff([]string{"Unable to find remote state: No stored state."}, problems); diff != "" {
		t.Errorf("problems -want +got:\n%s", diff)
	}
}

// viewChecks is what TestCheckAssertions compares of diagnostics: as
// TestCheckRules, the detail and the values shown under the source.
func viewChecks(ds diags.Diagnostics) []checkView {
	var out []checkView
	for i, v := range viewDiags(ds) {
		cv := failed(v, ds[i].Detail)
		for _, ev := range ds[i].Values {
			cv.Values = append(cv.Values, ev.Traversal+" "+ev.Statement)
		}
		out = append(out, cv)
	}
	return out
}
