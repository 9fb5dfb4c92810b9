package lang

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// DescribeValues says what the references in expr are in this scope, for
// a diagnostic about expr, as Terraform shows them under the source lines:
// "var.x is 1", "self.tags is map of string with 2 elements". A reference
// that cannot be resolved is described by its longest part that can. The
// values of sensitive references are never described, nor are values not
// known yet whose type is not known either; a value not known yet says
// only its type. The result is sorted by reference.
func (s *Scope) DescribeValues(expr hcl.Expression) []diags.ExprValue {
	refs, _ := ReferencesInExpr(expr)
	ctx, _ := s.EvalContext(refs)
	return describeValues(expr.Variables(), ctx, s.Secrets)
}

// describeValues describes the values of traversals in ctx, saying nothing
// of one that reads from an object holding a secret (nearSecret) or is a
// string revealing one of the run's secrets.
func describeValues(traversals []hcl.Traversal, ctx *hcl.EvalContext, secrets *marks.Known) []diags.ExprValue {
	var out []diags.ExprValue
	seen := map[string]bool{}
	for _, t := range traversals {
		for ; len(t) > 1; t = t[:len(t)-1] {
			val, hd := t.TraverseAbs(ctx)
			if hd.HasErrors() {
				continue
			}
			name := traversalText(t)
			if seen[name] {
				break
			}
			seen[name] = true
			if nearSecret(t, ctx) || revealsKnown(val, secrets) {
				break
			}
			if stmt, ok := valueStatement(val); ok {
				out = append(out, diags.ExprValue{Traversal: name, Statement: stmt})
			}
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Traversal < out[j].Traversal })
	return out
}

// nearSecret reports whether a traversal reads from an object that holds
// a sensitive value anywhere: then its value is not described either.
// Values copied from a secret without its mark (terraform_data's output
// mirrors its input; a provider may echo a password into another
// attribute) would otherwise be printed under a failed condition, in text
// and in the -json stream. Being wrong the other way only leaves a value
// undescribed.
//
// The objects looked at are those the traversal passes through below its
// namespace (var, local, a resource type): var.x for var.x.y,
// terraform_data.a for terraform_data.a.output; self and each are objects
// themselves.
func nearSecret(t hcl.Traversal, ctx *hcl.EvalContext) bool {
	first := 2
	if root := t.RootName(); root == "self" || root == "each" {
		first = 1
	}
	for n := first; n < len(t); n++ {
		v, hd := t[:n].TraverseAbs(ctx)
		if !hd.HasErrors() && v.ContainsMarked() {
			return true
		}
	}
	return false
}

// revealsKnown reports whether val is a known string that reveals one of
// secrets: only strings are described in full (compactValue).
func revealsKnown(val cty.Value, secrets *marks.Known) bool {
	if val.IsMarked() || !val.IsKnown() || val.IsNull() || val.Type() != cty.String {
		return false
	}
	return secrets.Reveals(val.AsString())
}

// valueStatement describes val; ok is false when nothing may be said.
func valueStatement(val cty.Value) (stmt string, ok bool) {
	switch {
	case val.HasMark(configschema.SensitiveMark), val.HasMark(marks.Ephemeral):
		return "", false
	case !val.IsKnown() && val.Type() == cty.DynamicPseudoType:
		return "", false
	case !val.IsKnown():
		return "is a " + val.Type().FriendlyName(), true
	}
	return "is " + compactValue(val), true
}

// compactValue is a one-line summary of a known, non-sensitive value:
// primitives in full, collections and objects by their shape only, so
// no element (which could be sensitive) is shown.
func compactValue(val cty.Value) string {
	ty := val.Type()
	switch {
	case val.IsNull():
		return "null"
	case !val.IsKnown():
		return "(not yet known)"
	case val.IsMarked():
		return "(sensitive value)"
	case ty == cty.Bool:
		return fmt.Sprint(val.True())
	case ty == cty.Number:
		return val.AsBigFloat().Text('g', 10)
	case ty == cty.String:
		return fmt.Sprintf("%q", val.AsString())
	case ty.IsCollectionType() || ty.IsTupleType():
		switch n := val.LengthInt(); n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		default:
			return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
		}
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		switch len(attrs) {
		case 0:
			return "object with no attributes"
		case 1:
			for name := range attrs {
				return fmt.Sprintf("object with 1 attribute %q", name)
			}
		}
		return fmt.Sprintf("object with %d attributes", len(attrs))
	}
	return ty.FriendlyName()
}

// traversalText writes a traversal as it reads in configuration, with
// index keys other than primitives elided.
func traversalText(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			key := "..."
			if s.Key.Type().IsPrimitiveType() {
				key = compactValue(s.Key)
			}
			b.WriteString("[" + key + "]")
		}
	}
	return b.String()
}
