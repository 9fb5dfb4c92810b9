package planning

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/hashicorp/hcl/v2"
)

// connectRefs adds an edge from v, in module m, to each vertex a
// reference names.
func (cg *configGraph) connectRefs(v int, m addrs.Module, refs []*addrs.Reference) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, ref := range refs {
		switch sub := ref.Subject.(type) {
		case addrs.LocalValue:
			if t, ok := cg.locals[localKey(m, sub.Name)]; ok {
				cg.g.Connect(v, t)
			} else {
				ds = ds.Append(diags.At(ref.SourceRange, "Reference to undeclared local value",
					fmt.Sprintf("A local value with the name %q has not been declared.", sub.Name)))
			}
		case addrs.Resource:
			ds = ds.Append(cg.connectResource(v, sub.InModule(m), ref.SourceRange))
			ds = ds.Append(cg.checkScopedRef(v, sub.InModule(m), ref.SourceRange))
		case addrs.ResourceInstance:
			ds = ds.Append(cg.connectResource(v, sub.Resource.InModule(m), ref.SourceRange))
			ds = ds.Append(cg.checkScopedRef(v, sub.Resource.InModule(m), ref.SourceRange))
		case addrs.InputVariable:
			if m.IsRoot() && cg.rootVariables[sub.Name] {
				continue // root variables are set before the walk
			}
			if t, ok := cg.variables[moduleName{m.String(), sub.Name}]; ok {
				cg.g.Connect(v, t)
			} else {
				ds = ds.Append(diags.At(ref.SourceRange, "Reference to undeclared input variable",
					fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", sub.Name, sub.Name)))
			}
		case addrs.ModuleCall:
			ds = ds.Append(cg.connectModuleCall(v, m, sub, "", ref.SourceRange))
		case addrs.ModuleCallOutput:
			ds = ds.Append(cg.connectModuleCall(v, m, sub.Call, sub.Name, ref.SourceRange))
		}
	}
	return ds
}

func (cg *configGraph) connectResource(v int, cr addrs.ConfigResource, rng hcl.Range) diags.Diagnostics {
	t, ok := cg.resourceVertex(cr)
	if !ok {
		r := cr.Resource
		what := "managed resource"
		if r.Mode == addrs.DataResourceMode {
			what = "data resource"
		}
		suggestion := ""
		if r.Mode == addrs.ManagedResourceMode {
			// Leaving out "data." is a common mistake.
			data := r
			data.Mode = addrs.DataResourceMode
			if _, ok := cg.resourceVertex(data.InModule(cr.Module)); ok {
				suggestion = fmt.Sprintf("\n\nDid you mean the data resource %s?", data)
			}
		}
		return diags.Diagnostics{diags.At(rng, "Reference to undeclared resource",
			fmt.Sprintf("A %s %q %q has not been declared in %s.%s", what, r.Type, r.Name, moduleDisplay(cr.Module), suggestion))}
	}
	cg.g.Connect(v, t)
	return nil
}

func (cg *configGraph) connectDependsOn(v int, m addrs.Module, traversals []hcl.Traversal) diags.Diagnostics {
	refs, ds := lang.References(traversals)
	for _, ref := range refs {
		if call, ok := ref.Subject.(addrs.ModuleCall); ok {
			cg.connectWholeModule(v, m.Child(call.Name))
		}
	}
	return ds.Append(cg.connectRefs(v, m, refs))
}

// moduleDisplay names a module as Terraform does in messages.
func moduleDisplay(m addrs.Module) string {
	if m.IsRoot() {
		return "the root module"
	}
	return m.String()
}
