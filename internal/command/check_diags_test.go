package command

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

// TestPlanDiagsForApply: the plan's check reports are left out only when
// apply runs without asking, since only then does apply report them again.
func TestPlanDiagsForApply(t *testing.T) {
	check := diags.Diagnostic{Severity: diags.Warning, Summary: "Check block assertion failed", FromCheckBlock: true}
	other := diags.Diagnostic{Severity: diags.Warning, Summary: "Error message refers to sensitive values"}
	changes := &plans.Plan{Changes: []*plans.ResourceInstanceChange{{Action: plans.Create}}}
	cases := map[string]struct {
		plan *plans.Plan
		asks bool
		want []string
	}{
		"AutoApprove":    {plan: changes, want: []string{other.Summary}},
		"AsksApproval":   {plan: changes, asks: true, want: []string{check.Summary, other.Summary}},
		"NothingToApply": {plan: &plans.Plan{}, want: []string{check.Summary, other.Summary}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, d := range planDiagsForApply(diags.Diagnostics{check, other}, tc.plan, tc.asks) {
				got = append(got, d.Summary)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
