package planning

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/didyoumean"
	"github.com/hashicorp/hcl/v2"
)

// connectModuleCall adds the edges of a reference, from vertex v in module
// m, to module call name: to the one output it names, or to all of the
// child's outputs (and the call, so a module without outputs still
// orders).
func (cg *configGraph) connectModuleCall(v int, m addrs.Module, call addrs.ModuleCall, output string, rng hcl.Range) diags.Diagnostics {
	child := m.Child(call.Name)
	c, ok := cg.calls[child.String()]
	if !ok {
		return diags.Diagnostics{diags.At(rng, "Reference to undeclared module",
			fmt.Sprintf("No module call named %q is declared in %s.%s", call.Name, moduleDisplay(m), cg.suggestModuleCall(m, call.Name)))}
	}
	if output != "" {
		t, ok := cg.outputs[moduleName{child.String(), output}]
		if !ok {
			return diags.Diagnostics{diags.At(rng, "Unsupported attribute",
				fmt.Sprintf("This object does not have an attribute named %q.", output))}
		}
		cg.g.Connect(v, t)
		return cg.deprecatedOutput(v, cg.vertices[t].output, call, rng)
	}
	cg.g.Connect(v, c)
	for _, t := range cg.modules[child.String()] {
		if cg.vertices[t].kind == vOutput {
			cg.g.Connect(v, t)
		}
	}
	return nil
}

// suggestModuleCall returns " Did you mean "NAME"?" for the module call of
// module m closest to name, or "".
func (cg *configGraph) suggestModuleCall(m addrs.Module, name string) string {
	var names []string
	for _, i := range cg.modules[m.String()] {
		if v := cg.vertices[i]; v.kind == vCall {
			names = append(names, v.name)
		}
	}
	sort.Strings(names)
	if s := didyoumean.NameSuggestion(name, names); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}

// connectWholeModule makes v wait for everything module path child and
// its descendants declare: depends_on = [module.NAME].
func (cg *configGraph) connectWholeModule(v int, child addrs.Module) {
	prefix := child.String()
	for key, vs := range cg.modules {
		if key != prefix && !strings.HasPrefix(key, prefix+".") {
			continue
		}
		for _, t := range vs {
			if k := cg.vertices[t].kind; k == vResource || k == vOutput {
				cg.g.Connect(v, t)
			}
		}
	}
}

// deprecatedOutput warns, as OpenTofu does, that vertex v reads output o
// of module call, which its author deprecated; located at v's block when
// it has one (a resource), else at the reference.
func (cg *configGraph) deprecatedOutput(v int, o *configs.Output, call addrs.ModuleCall, rng hcl.Range) diags.Diagnostics {
	if o == nil || o.Deprecated == "" {
		return nil
	}
	subject := rng.Ptr()
	if r := cg.vertices[v].declRange(); r != nil && cg.vertices[v].kind == vResource {
		subject = r
	}
	return diags.Diagnostics{{Severity: diags.Warning, Summary: "Value derived from a deprecated source",
		Detail:  fmt.Sprintf("This value is derived from %s.%s, which is deprecated with the following message:\n\n%s", call, o.Name, o.Deprecated),
		Subject: subject}}
}
