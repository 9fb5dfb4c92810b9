package configschema

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/didyoumean"
)

// StaticValidateTraversal checks, without any value, that a relative
// traversal into an object of this block (the rest of a reference such as
// terraform_data.x.nope after the resource) names something the schema
// has: an attribute, or a nested block indexed as its nesting mode allows.
// It reports what Terraform's validate reports, with its wording: an
// unknown name with a "Did you mean" suggestion, index syntax where an
// attribute was meant, a deprecated attribute (a warning). Past an
// attribute it leaves the checking to hcl, traversing an unknown value of
// the attribute's type.
//
// The check is optimistic: a traversal it passes may still fail once
// values are known (an index out of range).
func (b *Block) StaticValidateTraversal(t hcl.Traversal) hcl.Diagnostics {
	if len(t) == 0 {
		return nil
	}
	next, after := t[0], t[1:]
	attr, ok := next.(hcl.TraverseAttr)
	if !ok {
		return hcl.Diagnostics{notAnAttributeStep(next)}
	}
	if a, ok := b.Attributes[attr.Name]; ok {
		var ds hcl.Diagnostics
		if a.Deprecated {
			ds = append(ds, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Deprecated attribute",
				Detail:   fmt.Sprintf("The attribute %q is deprecated. Refer to the provider documentation for details.", attr.Name),
				Subject:  next.SourceRange().Ptr(),
			})
		}
		_, hds := after.TraverseRel(cty.UnknownVal(a.ImpliedType()))
		return append(ds, hds...)
	}
	if nb, ok := b.BlockTypes[attr.Name]; ok {
		return nb.staticValidateTraversal(attr.Name, after)
	}
	return hcl.Diagnostics{b.unsupportedAttribute(attr)}
}

// unsupportedAttribute is the error for a name the block does not have,
// suggesting the closest of its attribute and block type names.
func (b *Block) unsupportedAttribute(attr hcl.TraverseAttr) *hcl.Diagnostic {
	names := make([]string, 0, len(b.Attributes)+len(b.BlockTypes))
	for name := range b.Attributes {
		names = append(names, name)
	}
	for name := range b.BlockTypes {
		names = append(names, name)
	}
	sort.Strings(names)
	suggestion := ""
	if s := didyoumean.NameSuggestion(attr.Name, names); s != "" {
		suggestion = fmt.Sprintf(" Did you mean %q?", s)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported attribute",
		Detail:   fmt.Sprintf("This object has no argument, nested block, or exported attribute named %q.%s", attr.Name, suggestion),
		Subject:  attr.SrcRange.Ptr(),
	}
}

// notAnAttributeStep is the error for an index (or any other step) applied
// directly to a block's object, where only attribute access makes sense.
func notAnAttributeStep(step hcl.Traverser) *hcl.Diagnostic {
	idx, ok := step.(hcl.TraverseIndex)
	if !ok {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid operation",
			Detail:   "Only attribute access is allowed here, using the dot operator.",
			Subject:  step.SourceRange().Ptr(),
		}
	}
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid index operation",
		Detail:   "Only attribute access is allowed here, using the dot operator.",
		Subject:  idx.SrcRange.Ptr(),
	}
	if k := idx.Key; k.Type() == cty.String && k.IsKnown() && !k.IsNull() && hclsyntax.ValidIdentifier(k.AsString()) {
		d.Detail = fmt.Sprintf("Only attribute access is allowed here. Did you mean to access attribute %q using the dot operator?", k.AsString())
	}
	return d
}

// staticValidateTraversal checks the traversal after a nested block's
// name: a single block is an object, a list must be indexed, a map may be,
// and a set cannot be.
func (nb *NestedBlock) staticValidateTraversal(name string, t hcl.Traversal) hcl.Diagnostics {
	if nb.Nesting == NestingSingle || nb.Nesting == NestingGroup {
		return nb.Block.StaticValidateTraversal(t)
	}
	if len(t) == 0 {
		return nil
	}
	next, after := t[0], t[1:]
	switch nb.Nesting {
	case NestingSet:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot index a set value",
			Detail:   fmt.Sprintf("Block type %q is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a \"for\" expression with an \"if\" clause.", name),
			Subject:  next.SourceRange().Ptr(),
		}}
	case NestingList:
		if _, ok := next.(hcl.TraverseIndex); !ok {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid operation",
				Detail:   fmt.Sprintf("Block type %q is represented by a list of objects, so it must be indexed using a numeric key, like .%s[0].", name, name),
				Subject:  next.SourceRange().Ptr(),
			}}
		}
		return nb.Block.StaticValidateTraversal(after)
	case NestingMap:
		// An attribute step and an index step both select an element; a
		// key of the wrong type is left to evaluation.
		return nb.Block.StaticValidateTraversal(after)
	}
	return nil
}
