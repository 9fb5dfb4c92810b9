package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
)

// TestPlanBlocksAreThePlanText holds the blocks to the text Plan prints
// for the Terraform plans of TestPlanMatchesTerraform: every block's
// lines appear in the text as they are, in order, and the summary line is
// the text's ("No changes." for a plan that does nothing). The kinds
// follow the symbols the lines start with.
func TestPlanBlocksAreThePlanText(t *testing.T) {
	tests := map[string]struct {
		plan string
		mode plans.Mode
	}{
		"create":          {plan: "s1/plan_create.json"},
		"update":          {plan: "s1/plan_update.json"},
		"replace":         {plan: "s1/plan_replace.json"},
		"destroy":         {plan: "s1/plan_destroy.json", mode: plans.DestroyMode},
		"tricky":          {plan: "s4/plan_b.json"},
		"outputs":         {plan: "s4/plan_c.json"},
		"moved":           {plan: "s5/plan_moved.json"},
		"no changes":      {plan: "s1/plan_noop.json"},
		"destroy nothing": {plan: "empty/plan_destroy_noop.json", mode: plans.DestroyMode},
	}
	schemas := terraformSchemas(t)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := planFromTerraform(t, tc.plan, tc.mode, schemas)
			var text bytes.Buffer
			if err := Plan(&text, p, schemas, Options{}); err != nil {
				t.Fatal(err)
			}
			got, err := PlanBlocks(p, schemas, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rest := text.String()
			for _, blocks := range [][]Block{got.Drift, got.Changes, got.Outputs} {
				for _, b := range blocks {
					rest = checkBlockIn(t, rest, b)
				}
			}
			if want := summaryLine(text.String()); got.Summary != want {
				t.Errorf("summary %q, want the text's %q", got.Summary, want)
			}
		})
	}
}

// summaryLine is the line of a plan's text that sums it up: "Plan: ..."
// or, when it does nothing, "No changes. ...".
func summaryLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Plan: ") || strings.HasPrefix(l, "No changes. ") {
			return l
		}
	}
	return ""
}

// checkBlockIn checks that b's lines follow in text, each line's kind
// matching its symbol, and returns text after the block.
func checkBlockIn(t *testing.T, text string, b Block) string {
	t.Helper()
	var lines []string
	for _, l := range b.Lines {
		lines = append(lines, l.Text)
		if want := kindOfSymbol(l.Text); want != l.Kind {
			t.Errorf("%q: kind %s, want %s", l.Text, l.Kind, want)
		}
	}
	joined := strings.Join(lines, "\n")
	i := strings.Index(text, joined)
	if i < 0 {
		t.Errorf("block is not in the plan text:\n%s", joined)
		return text
	}
	return text[i+len(joined):]
}

// kindOfSymbol classifies a line of the golden plans by its first
// characters, which is exact for them: none has a heredoc line starting
// with a symbol.
func kindOfSymbol(l string) LineKind {
	t := strings.TrimLeft(l, " ")
	for _, p := range []struct {
		prefix string
		kind   LineKind
	}{{"-/+", LineReplace}, {"+/-", LineReplace}, {"<=", LineRead}, {"+", LineAdd}, {"-", LineRemove}, {"~", LineChange}, {". ", LineRemove}} {
		if strings.HasPrefix(t, p.prefix) {
			return p.kind
		}
	}
	if strings.HasPrefix(t, "# ") && strings.HasPrefix(l, "  # ") && (strings.Contains(l, " will ") || strings.Contains(l, " must ") || strings.Contains(l, " is tainted") || strings.Contains(l, " has ")) {
		return LineHeader
	}
	if strings.HasPrefix(t, "#") {
		return LineNote
	}
	return LineContext
}
