package configs

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// diagWant is what the tests compare of a diagnostic: its severity, summary
// and where its subject starts ("main.tf:3:7", or "" without a subject).
// Details are prose for people and are left out on purpose.
type diagWant struct {
	Severity diags.Severity
	Summary  string
	At       string
}

func errAt(summary, at string) diagWant  { return diagWant{diags.Error, summary, at} }
func warnAt(summary, at string) diagWant { return diagWant{diags.Warning, summary, at} }

func summarizeDiags(ds diags.Diagnostics) []diagWant {
	var out []diagWant
	for _, d := range ds {
		at := ""
		if d.Subject != nil {
			at = posString(*d.Subject)
		}
		out = append(out, diagWant{d.Severity, d.Summary, at})
	}
	return out
}

// loadStrings loads a module from inline sources.
func loadStrings(files map[string]string) (*Module, diags.Diagnostics) {
	m := make(map[string][]byte, len(files))
	for k, v := range files {
		m[k] = []byte(v)
	}
	return LoadFiles(".", m)
}

// mustLoad loads inline sources and fails the test on any diagnostic.
func mustLoad(t *testing.T, files map[string]string) *Module {
	t.Helper()
	mod, ds := loadStrings(files)
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", ds.Error())
	}
	return mod
}

// traversalString renders a traversal as it would be written:
// tags["Name"], aws_instance.a[0].
func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + valueString(s.Key) + "]")
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

func traversalStrings(ts []hcl.Traversal) []string {
	var out []string
	for _, t := range ts {
		out = append(out, traversalString(t))
	}
	return out
}

func valueString(v cty.Value) string {
	switch {
	case v.IsNull():
		return "null"
	case !v.IsKnown():
		return "(unknown)"
	case v.Type() == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		return fmt.Sprint(v.True())
	}
	return v.GoString()
}

// exprText returns the source text of an expression.
func exprText(m *Module, expr hcl.Expression) string {
	if expr == nil {
		return ""
	}
	rng := expr.Range()
	src := m.Sources[rng.Filename]
	if rng.Start.Byte < 0 || rng.End.Byte > len(src) || rng.Start.Byte > rng.End.Byte {
		return fmt.Sprintf("(range %s out of source)", rng)
	}
	return string(src[rng.Start.Byte:rng.End.Byte])
}

// testResourceSchema stands in for a provider's resource schema: the
// planner decodes Resource.Config against one, so no meta-argument may be
// left in it and nested and dynamic blocks must still be there.
var testResourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "ami"}, {Name: "tags"}, {Name: "name"}, {Name: "input"}, {Name: "most_recent"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "ebs"},
		{Type: "dynamic", LabelNames: []string{"type"}},
	},
}

// configView lists what a resource's Config holds when decoded against
// testResourceSchema: attribute names, then blocks as "type" or
// "dynamic.label", then any decoding error summaries.
func configView(body hcl.Body) []string {
	if body == nil {
		return []string{"(nil body)"}
	}
	content, ds := body.Content(testResourceSchema)
	var out []string
	for name := range content.Attributes {
		out = append(out, name)
	}
	sort.Strings(out)
	for _, b := range content.Blocks {
		out = append(out, strings.Join(append([]string{b.Type}, b.Labels...), "."))
	}
	for _, d := range ds {
		out = append(out, "error: "+d.Summary)
	}
	return out
}
