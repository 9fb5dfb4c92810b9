package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestOutputMatchesTerraform compares Output with `terraform output`, for
// all outputs, in human and JSON form.
func TestOutputMatchesTerraform(t *testing.T) {
	outputs := stage1State(t).Outputs
	tests := map[string]struct {
		format OutputFormat
		want   string
	}{
		"human": {OutputHuman, "terraform/s1/output.txt"},
		"json":  {OutputJSON, "terraform/s1/output.json"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if ds := Output(&got, "", outputs, tc.format, marks.Secrets{}); len(ds) > 0 {
				t.Fatal(ds)
			}
			if diff := cmp.Diff(readGolden(t, tc.want), got.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestOutputEachMatchesTerraform replays `terraform output [-raw|-json]
// NAME` for every output, errors included: the file holds what Terraform
// printed (the -json runs were made with colour on).
func TestOutputEachMatchesTerraform(t *testing.T) {
	outputs := stage1State(t).Outputs
	run := func(name string, f OutputFormat, color bool) string {
		var out bytes.Buffer
		ds := Output(&out, name, outputs, f, marks.Secrets{})
		// Cairn's advice names the command to run, cairn apply, where
		// Terraform's names terraform apply; put Terraform's name back so
		// the rest (wrapping included) is compared byte for byte.
		for i := range ds {
			ds[i].Detail = strings.ReplaceAll(ds[i].Detail, "cairn apply", "terraform apply")
		}
		if err := Diagnostics(&out, ds, nil, Options{Color: color}); err != nil {
			t.Fatal(err)
		}
		if ds.HasErrors() {
			return out.String() + "rc=1\n"
		}
		return out.String() + "rc=0\n"
	}
	var got strings.Builder
	for _, name := range []string{"s", "n", "b", "l", "m", "o", "sens", "nul", "computed", "ml", "emptylist", "emptymap"} {
		got.WriteString("== " + name + "\n")
		got.WriteString(run(name, OutputHuman, false))
		got.WriteString("-- raw\n")
		got.WriteString(run(name, OutputRaw, false))
		got.WriteString("-- json\n")
		got.WriteString(run(name, OutputJSON, true))
	}
	if diff := cmp.Diff(readGolden(t, "terraform/s1/output_each.txt"), got.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestApplyOutputsMatchTerraform compares the end of `terraform apply`.
func TestApplyOutputsMatchTerraform(t *testing.T) {
	tests := map[string]struct {
		outputs                   map[string]*states.OutputValue
		added, changed, destroyed int
		color                     bool
		want                      string
	}{
		"stage 1": {
			outputs: stage1State(t).Outputs, added: 25,
			want: "\n" + readGolden(t, "terraform/s1/apply_create_tail.txt"),
		},
		"outputs only, colour": {
			outputs: map[string]*states.OutputValue{
				"only":    {Value: cty.StringVal("c")},
				"sensobj": {Value: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}), Sensitive: true},
				"unk":     {Value: cty.StringVal("seed2")},
			},
			color: true,
			want:  readGolden(t, "terraform/s4/apply_c.color.txt"),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			opts := Options{Color: tc.color}
			if err := ApplySummary(&got, UIChangeSummary{Add: tc.added, Change: tc.changed, Remove: tc.destroyed, Operation: "apply"}, opts); err != nil {
				t.Fatal(err)
			}
			if err := Outputs(&got, tc.outputs, opts); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestFormatValue covers what the captured outputs do not: typed
// collections, typed nulls, unknown and sensitive values, heredoc
// delimiters that clash with the text.
func TestFormatValue(t *testing.T) {
	tests := map[string]struct {
		v      cty.Value
		indent int
		want   string
	}{
		"list":         {v: cty.ListVal([]cty.Value{cty.StringVal("a")}), want: "tolist([\n  \"a\",\n])"},
		"set":          {v: cty.SetVal([]cty.Value{cty.NumberIntVal(1)}), want: "toset([\n  1,\n])"},
		"map":          {v: cty.MapVal(map[string]cty.Value{"k": cty.True}), want: "tomap({\n  \"k\" = true\n})"},
		"empty map":    {v: cty.MapValEmpty(cty.String), want: "tomap({})"},
		"null string":  {v: cty.NullVal(cty.String), want: "tostring(null)"},
		"null list":    {v: cty.NullVal(cty.List(cty.Number)), want: "tolist(null) /* of number */"},
		"null object":  {v: cty.NullVal(cty.EmptyObject), want: "null /* object */"},
		"null dynamic": {v: cty.NullVal(cty.DynamicPseudoType), want: "null"},
		"unknown":      {v: cty.UnknownVal(cty.String), want: "(known after apply)"},
		"sensitive":    {v: cty.StringVal("x").Mark("sensitive"), want: "(sensitive value)"},
		"nested sensitive": {
			v:    cty.ObjectVal(map[string]cty.Value{"p": cty.StringVal("x").Mark("sensitive")}),
			want: "{\n  \"p\" = (sensitive value)\n}",
		},
		"heredoc delimiter clash": {v: cty.StringVal("EOT\n EOT_ \nx"), want: "<<EOT__\nEOT\n EOT_ \nx\nEOT__"},
		"indented heredoc":        {v: cty.StringVal("a\nb"), indent: 2, want: "<<-EOT\n  a\n  b\n  EOT"},
		"big number":              {v: cty.MustParseNumberVal("12345678901234567890"), want: "12345678901234567890"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FormatValue(tc.v, tc.indent)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestOutputProblems checks the diagnostics `terraform output` reports
// instead of printing, by severity and summary.
func TestOutputProblems(t *testing.T) {
	some := map[string]*states.OutputValue{
		"s":   {Value: cty.StringVal("x")},
		"nul": {Value: cty.NullVal(cty.String)},
		"unk": {Value: cty.UnknownVal(cty.String)},
	}
	type problem struct{ Severity, Summary string }
	tests := map[string]struct {
		outputs map[string]*states.OutputValue
		name    string
		format  OutputFormat
		want    []problem
	}{
		"no outputs":      {outputs: nil, format: OutputHuman, want: []problem{{"W", "No outputs found"}}},
		"no outputs raw":  {outputs: nil, name: "s", format: OutputRaw, want: []problem{{"W", "No outputs found"}}},
		"raw needs name":  {outputs: some, format: OutputRaw, want: []problem{{"E", "Raw output format is only supported for single outputs"}}},
		"missing":         {outputs: some, name: "nope", format: OutputJSON, want: []problem{{"E", `Output "nope" not found`}}},
		"raw null":        {outputs: some, name: "nul", format: OutputRaw, want: []problem{{"E", "Unsupported value for raw output"}}},
		"raw unknown":     {outputs: some, name: "unk", format: OutputRaw, want: []problem{{"E", "Unsupported value for raw output"}}},
		"json no outputs": {outputs: nil, format: OutputJSON},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			var got []problem
			for _, d := range Output(&out, tc.name, tc.outputs, tc.format, marks.Secrets{}) {
				got = append(got, problem{string(rune(d.Severity)), d.Summary})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(tc.want) > 0 && out.Len() > 0 {
				t.Errorf("wrote %q despite the problem", out.String())
			}
		})
	}
}

// TestApplySummaryImported: the import count leads only when non-zero.
func TestApplySummaryImported(t *testing.T) {
	var got bytes.Buffer
	if err := ApplySummary(&got, UIChangeSummary{Import: 1, Change: 1, Operation: "apply"}, Options{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("\nApply complete! Resources: 1 imported, 0 added, 1 changed, 0 destroyed.\n", got.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestApplySummaryDestroy(t *testing.T) {
	var got bytes.Buffer
	if err := ApplySummary(&got, UIChangeSummary{Remove: 3, Operation: "destroy"}, Options{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("\nDestroy complete! Resources: 3 destroyed.\n", got.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSummaryForgets: objects dropped from state without being destroyed
// end the summary lines only when there are some, after the imports that
// lead them, as Terraform 1.7 and OpenTofu word them.
func TestSummaryForgets(t *testing.T) {
	cases := map[string]struct {
		sum  UIChangeSummary
		want string
	}{
		"plan":               {UIChangeSummary{Remove: 1, Forget: 2, Operation: "plan"}, "Plan: 0 to add, 0 to change, 1 to destroy, 2 to forget."},
		"plan with imports":  {UIChangeSummary{Import: 1, Forget: 1, Operation: "plan"}, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy, 1 to forget."},
		"plan without":       {UIChangeSummary{Add: 1, Operation: "plan"}, "Plan: 1 to add, 0 to change, 0 to destroy."},
		"apply":              {UIChangeSummary{Add: 1, Forget: 3, Operation: "apply"}, "Apply complete! Resources: 1 added, 0 changed, 0 destroyed, 3 forgotten."},
		"apply with imports": {UIChangeSummary{Import: 2, Forget: 1, Operation: "apply"}, "Apply complete! Resources: 2 imported, 0 added, 0 changed, 0 destroyed, 1 forgotten."},
		"apply without":      {UIChangeSummary{Change: 1, Operation: "apply"}, "Apply complete! Resources: 0 added, 1 changed, 0 destroyed."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.sum.text(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
