package planning

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// staticDiag is what these tests compare of a diagnostic.
type staticDiag struct {
	Severity diags.Severity
	Summary  string
	Detail   string
	Columns  string
}

// TestStaticRefChecker pins the checks validation makes of a reference
// before evaluating it, each with Terraform 1.5.7's wording (checked
// against the real binary by TestScripts/static_validation).
func TestStaticRefChecker(t *testing.T) {
	cfg, ds := configs.LoadFiles(".", map[string][]byte{"main.tf": []byte(`
resource "t_x" "one" {}
resource "t_x" "counted" {
  count = 2
}
resource "t_x" "each" {
  for_each = toset(["a"])
}
data "t_d" "d" {}
`)})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	cases := map[string]struct {
		reason string
		expr   string
		self   string // resource self refers to, if any
		want   []staticDiag
	}{
		"attribute":           {expr: `t_x.one.id`},
		"whole resource":      {expr: `t_x.counted`},
		"instance attribute":  {expr: `t_x.counted[1].id`},
		"each instance":       {expr: `t_x.each["a"].in`},
		"data attribute":      {expr: `data.t_d.d.in`},
		"undeclared resource": {reason: "reported by the graph, which cannot connect it", expr: `t_x.two.id`},
		"misspelled attribute": {
			expr: `t_x.one.idd`,
			want: []staticDiag{{diags.Error, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "idd". Did you mean "id"?`, "8-12"}},
		},
		"data source attribute": {
			expr: `data.t_d.d.nope`,
			want: []staticDiag{{diags.Error, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "nope".`, "11-16"}},
		},
		"key without repetition": {
			expr: `t_x.one[0].id`,
			want: []staticDiag{{diags.Error, "Unexpected resource instance key", `Because t_x.one does not have "count" or "for_each" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.`, "1-11"}},
		},
		"no key under count": {
			expr: `t_x.counted.id`,
			want: []staticDiag{{diags.Error, "Missing resource instance key", "Because t_x.counted has \"count\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    t_x.counted[count.index]", "1-12"}},
		},
		"no key under for_each": {
			expr: `t_x.each.id`,
			want: []staticDiag{{diags.Error, "Missing resource instance key", "Because t_x.each has \"for_each\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    t_x.each[each.key]", "1-9"}},
		},
		"count attribute": {
			expr: `t_x.one.count`,
			want: []staticDiag{{diags.Error, "Invalid resource count attribute", `The special "count" attribute is no longer supported after Terraform v0.12. Instead, use length(t_x.one) to count resource instances.`, "1-8"}},
		},
		"self": {
			reason: "self in a postcondition is its resource",
			expr:   `self.nope`,
			self:   "one",
			want:   []staticDiag{{diags.Error, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "nope".`, "5-10"}},
		},
		"self elsewhere": {reason: "the scope reports self where there is none", expr: `self.nope`},
	}
	checker := staticRefChecker{schemas: testSchemas()}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			expr, hds := hclsyntax.ParseExpression([]byte(tc.expr), "main.tf", hcl.InitialPos)
			if hds.HasErrors() {
				t.Fatal(hds.Error())
			}
			refs, rds := lang.ReferencesInExpr(expr)
			if rds.HasErrors() {
				t.Fatal(rds.Error())
			}
			var self *configs.Resource
			if tc.self != "" {
				self = cfg.ManagedResources["t_x."+tc.self]
			}
			var got []staticDiag
			for _, d := range checker.check(cfg, refs, self) {
				got = append(got, staticDiag{d.Severity, d.Summary, d.Detail, fmt.Sprintf("%d-%d", d.Subject.Start.Column, d.Subject.End.Column)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n%s: -want +got:\n%s", tc.reason, tc.expr, diff)
			}
		})
	}
}
