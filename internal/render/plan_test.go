package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/ (never those under testdata/terraform, which Terraform wrote)")

// cairnGolden returns Cairn's golden file under testdata, first writing
// got there with -update.
func cairnGolden(t testing.TB, path, got string) string {
	t.Helper()
	if *update {
		full := filepath.Join("testdata", path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return readGolden(t, path)
}

// readGolden returns a file under testdata.
func readGolden(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPlanMatchesTerraform renders Cairn's equivalent of plans real
// Terraform 1.5.7 made and compares the text with what `terraform show
// PLANFILE` printed for them, byte for byte.
func TestPlanMatchesTerraform(t *testing.T) {
	tests := map[string]struct {
		reason string
		plan   string
		mode   plans.Mode
		color  bool
		want   string
		// cairn, when set, is Cairn's golden file (under testdata/,
		// written by -update): the plan shows terraform_data outputs that
		// mirror a sensitive input, which Terraform prints in plain text,
		// as "(sensitive value)" (see humanMarks). Nothing else differs.
		cairn string
	}{
		"create": {
			reason: "create of every kind of input: primitives, collections, nested, null, heredoc, JSON, sensitive, count, for_each",
			plan:   "s1/plan_create.json", want: "s1/plan_create.txt",
		},
		"create color": {
			reason: "the same in colour",
			plan:   "s1/plan_create.json", want: "s1/plan_create.color.txt", color: true,
		},
		"no changes": {
			plan: "s1/plan_noop.json", want: "s1/plan_noop.txt",
		},
		"no changes color": {
			plan: "s1/plan_noop.json", want: "s1/plan_noop.color.txt", color: true,
		},
		"update": {
			reason: "in-place updates, list and set edits, replacement by trigger, deletions with reasons, output changes",
			plan:   "s1/plan_update.json", want: "s1/plan_update.txt", cairn: "mirror/s1_plan_update.txt",
		},
		"update color": {
			plan: "s1/plan_update.json", want: "s1/plan_update.color.txt", cairn: "mirror/s1_plan_update.color.txt", color: true,
		},
		"replace": {
			reason: "tainted, requested, replace_triggered_by, create_before_destroy, sensitivity warnings, deferred data read",
			plan:   "s1/plan_replace.json", want: "s1/plan_replace.txt", cairn: "mirror/s1_plan_replace.txt",
		},
		"replace color": {
			plan: "s1/plan_replace.json", want: "s1/plan_replace.color.txt", cairn: "mirror/s1_plan_replace.color.txt", color: true,
		},
		"destroy": {
			plan: "s1/plan_destroy.json", want: "s1/plan_destroy.txt", cairn: "mirror/s1_plan_destroy.txt", mode: plans.DestroyMode,
		},
		"destroy color": {
			plan: "s1/plan_destroy.json", want: "s1/plan_destroy.color.txt", cairn: "mirror/s1_plan_destroy.color.txt", mode: plans.DestroyMode, color: true,
		},
		"tricky values create": {
			reason: "string escapes, number formatting, JSON strings, lists of objects",
			plan:   "s4/plan_a.json", want: "s4/plan_a.txt",
		},
		"tricky values update": {
			reason: "list context, JSON whitespace, type changes, unknowns inside collections",
			plan:   "s4/plan_b.json", want: "s4/plan_b.txt", cairn: "mirror/s4_plan_b.txt",
		},
		"tricky values update color": {
			plan: "s4/plan_b.json", want: "s4/plan_b.color.txt", cairn: "mirror/s4_plan_b.color.txt", color: true,
		},
		"outputs only": {
			plan: "s4/plan_c.json", want: "s4/plan_c.txt",
		},
		"moved": {
			reason: "renames with and without an update, an implied move, for_each keys to count indexes, a move to an undeclared address",
			plan:   "s5/plan_moved.json", want: "s5/plan_moved.txt",
		},
		"moved color": {
			plan: "s5/plan_moved.json", want: "s5/plan_moved.color.txt", color: true,
		},
		"destroy nothing": {
			plan: "empty/plan_destroy_noop.json", want: "empty/plan_destroy_noop.txt", mode: plans.DestroyMode,
		},
	}
	schemas := terraformSchemas(t)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := planFromTerraform(t, tc.plan, tc.mode, schemas)
			var got bytes.Buffer
			if err := Plan(&got, p, schemas, Options{Color: tc.color}); err != nil {
				t.Fatal(err)
			}
			want := readGolden(t, filepath.Join("terraform", tc.want))
			if tc.cairn != "" {
				want = cairnGolden(t, tc.cairn, got.String())
			}
			if diff := cmp.Diff(want, got.String()); diff != "" {
				t.Errorf("Plan() differs from Terraform's output (-want +got):\n%s", diff)
			}
			if strings.Contains(got.String(), "hunter") {
				t.Errorf("the plan shows a secret (hunter...):\n%s", got.String())
			}
		})
	}
}

// TestPlanNextStepMatchesTerraform compares the end of `terraform plan`.
func TestPlanNextStepMatchesTerraform(t *testing.T) {
	tests := map[string]struct {
		path string
		want string
	}{
		"saved":   {path: "plan.bin", want: readGolden(t, "terraform/s1/plan_create_cmd_tail.txt")},
		"unsaved": {want: lastRule(readGolden(t, "terraform/s4/plan_c_noout_cmd.txt"))},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := PlanNextStep(&got, tc.path, "terraform", Options{}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// lastRule returns s from the newline before its horizontal rule.
func lastRule(s string) string {
	return s[strings.LastIndex(s, "\n─"):]
}
