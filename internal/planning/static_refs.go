package planning

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2"
)

// staticRefChecker checks references against the configuration and the
// providers' schemas before any value exists, as Terraform's validate
// does: the attribute a reference reads must be one its resource type has
// (terraform_data.x.nope, with a "Did you mean" for a misspelling), and
// its instance key must fit the resource's count or for_each. Undeclared
// objects are reported by the graph, which cannot connect them.
type staticRefChecker struct {
	schemas providers.Schemas
}

// check returns the problems of refs, made in module mod. self is the
// resource that self refers to (in its postconditions), or nil.
func (c staticRefChecker) check(mod *configs.Module, refs []*addrs.Reference, self *configs.Resource) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, ref := range refs {
		ds = ds.Append(c.checkRef(mod, ref, self))
	}
	return ds
}

func (c staticRefChecker) checkRef(mod *configs.Module, ref *addrs.Reference, self *configs.Resource) diags.Diagnostics {
	switch sub := ref.Subject.(type) {
	case addrs.Self:
		if self == nil {
			return nil // lang reports self where it is not available
		}
		return c.checkResourceRef(self, ref.Remaining, ref.SourceRange)
	case addrs.Resource:
		r := mod.ResourceByAddr(sub)
		if r == nil {
			return nil
		}
		return missingKey(r, ref).Append(c.checkResourceRef(r, ref.Remaining, ref.SourceRange))
	case addrs.ResourceInstance:
		r := mod.ResourceByAddr(sub.Resource)
		if r == nil {
			return nil
		}
		var ds diags.Diagnostics
		if sub.Key != addrs.NoKey && r.Count == nil && r.ForEach == nil {
			ds = ds.Append(diags.At(ref.SourceRange, "Unexpected resource instance key",
				fmt.Sprintf(`Because %s does not have "count" or "for_each" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.`, sub.Resource)))
		}
		return ds.Append(c.checkResourceRef(r, ref.Remaining, ref.SourceRange))
	}
	return nil
}

// missingKey reports an attribute read from a repeated resource without
// an instance key (aws_instance.foo.id where foo has count). A reference
// to the whole resource is fine: the key may be an expression
// (foo[count.index]), which is no part of the reference.
func missingKey(r *configs.Resource, ref *addrs.Reference) diags.Diagnostics {
	if len(ref.Remaining) == 0 {
		return nil
	}
	addr := r.Addr()
	var ds diags.Diagnostics
	if r.Count != nil {
		ds = ds.Append(diags.At(ref.SourceRange, "Missing resource instance key",
			fmt.Sprintf("Because %s has \"count\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[count.index]", addr, addr)))
	}
	if r.ForEach != nil {
		ds = ds.Append(diags.At(ref.SourceRange, "Missing resource instance key",
			fmt.Sprintf("Because %s has \"for_each\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[each.key]", addr, addr)))
	}
	return ds
}

// checkResourceRef checks the attribute path read from an object of
// resource r against r's schema. A resource whose type its provider lacks
// was reported at its block.
func (c staticRefChecker) checkResourceRef(r *configs.Resource, remain hcl.Traversal, rng hcl.Range) diags.Diagnostics {
	schema, _ := c.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	if schema == nil {
		return nil
	}
	if len(remain) > 0 {
		if step, ok := remain[0].(hcl.TraverseAttr); ok && step.Name == "count" {
			return diags.Diagnostics{diags.At(rng, "Invalid resource count attribute",
				fmt.Sprintf(`The special "count" attribute is no longer supported after Terraform v0.12. Instead, use length(%s) to count resource instances.`, r.Addr()))}
		}
	}
	return diags.Diagnostics{}.Append(schema.StaticValidateTraversal(remain))
}
