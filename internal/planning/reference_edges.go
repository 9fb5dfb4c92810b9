package planning

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/didyoumean"
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
					fmt.Sprintf("A local value with the name %q has not been declared.%s", sub.Name, meant(sub.Name, cg.namesIn(m, vLocal)))))
			}
		case addrs.Resource:
			ds = ds.Append(cg.connectResource(v, sub.InModule(m), ref.SourceRange))
			ds = ds.Append(cg.checkScopedRef(v, sub.InModule(m), ref.SourceRange))
		case addrs.ResourceInstance:
			ds = ds.Append(cg.connectResource(v, sub.Resource.InModule(m), ref.SourceRange))
			ds = ds.Append(cg.checkScopedRef(v, sub.Resource.InModule(m), ref.SourceRange))
		case addrs.InputVariable:
			if t, ok := cg.validations[moduleName{m.String(), sub.Name}]; ok && t != v {
				cg.g.Connect(v, t)
				continue
			}
			if m.IsRoot() && cg.rootVariables[sub.Name] {
				continue // root variables are set before the walk
			}
			if t, ok := cg.variables[moduleName{m.String(), sub.Name}]; ok {
				cg.g.Connect(v, t)
			} else {
				hint := meant(sub.Name, cg.variableNames(m))
				if hint == "" {
					hint = fmt.Sprintf(" This variable can be declared with a variable %q {} block.", sub.Name)
				}
				ds = ds.Append(diags.At(ref.SourceRange, "Reference to undeclared input variable",
					fmt.Sprintf("An input variable with the name %q has not been declared.%s", sub.Name, hint)))
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
		switch r.Mode {
		case addrs.DataResourceMode:
			what = "data resource"
		case addrs.EphemeralResourceMode:
			what = "ephemeral resource"
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

// meant is Terraform's " Did you mean ...?" for a name close to one of
// names, or empty.
func meant(name string, names []string) string {
	if s := didyoumean.NameSuggestion(name, names); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}

// namesIn lists the names of module m's vertices of one kind.
func (cg *configGraph) namesIn(m addrs.Module, kind vertexKind) []string {
	var out []string
	for _, i := range cg.modules[m.String()] {
		if v := cg.vertices[i]; v.kind == kind {
			out = append(out, v.name)
		}
	}
	return out
}

// variableNames lists module m's declared input variables: the root
// module's have no vertices.
func (cg *configGraph) variableNames(m addrs.Module) []string {
	if m.IsRoot() {
		return slices.Sorted(maps.Keys(cg.rootVariables))
	}
	return cg.namesIn(m, vVariable)
}
