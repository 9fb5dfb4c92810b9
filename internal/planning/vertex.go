package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/hashicorp/hcl/v2"
)

// vertexKind is what a vertex of the configuration graph stands for.
type vertexKind byte

const (
	vProvider vertexKind = 'P'
	vLocal    vertexKind = 'L'
	vOutput   vertexKind = 'O'
	vResource vertexKind = 'R'
	// vOrphan is a resource that exists in state but not in configuration.
	vOrphan vertexKind = 'X'
	// vCall is a module call: it expands the call in every instance of
	// the calling module. Everything in the child waits for it.
	vCall vertexKind = 'M'
	// vVariable is an input variable of a child module, set from the
	// call's argument in every instance of the module.
	vVariable vertexKind = 'V'
	// vCheck is a check block: its assertions, evaluated after everything
	// they refer to.
	vCheck vertexKind = 'C'
	// vValidation is the validation rules of an input variable that refer
	// to other variables, locals or objects (1.9): checked in every
	// instance of the variable's module once what they name has values.
	vValidation vertexKind = 'Y'
)

// vertex is one object of the configuration graph: a provider
// configuration, local, output or resource block of one module (planned in
// every instance of that module), or a resource of prior state the
// configuration no longer has.
type vertex struct {
	kind     vertexKind
	module   addrs.Module
	name     string // local or output name
	provider addrs.AbsProviderConfig
	pcfg     *configs.Provider
	local    *configs.Local
	output   *configs.Output
	resource *configs.Resource
	orphan   *states.Resource
	// call is a vCall's module block (in module, named name); variable
	// a vVariable's declaration (in the child module).
	call     *configs.ModuleCall
	variable *configs.Variable
	check    *configs.Check
}

// String names the vertex as users write it, for cycle reports and DOT.
func (v *vertex) String() string {
	switch v.kind {
	case vProvider:
		return v.provider.String()
	case vLocal:
		return prefixModule(v.module, "local."+v.name)
	case vOutput:
		return prefixModule(v.module, "output."+v.name)
	case vResource:
		return v.resource.Addr().InModule(v.module).String()
	case vOrphan:
		return v.orphan.Addr.String() + " (orphan)"
	case vCall:
		return prefixModule(v.module, "module."+v.name)
	case vVariable:
		return prefixModule(v.module, "var."+v.name)
	case vCheck:
		return prefixModule(v.module, "check."+v.check.Name)
	case vValidation:
		return prefixModule(v.module, "var."+v.name+" (validation)")
	}
	return "?"
}

func prefixModule(m addrs.Module, s string) string {
	if m.IsRoot() {
		return s
	}
	return m.String() + "." + s
}

// refModule returns the module in which the vertex's references are
// resolved: a child variable's argument is written in the caller.
func (v *vertex) refModule() addrs.Module {
	if v.kind == vVariable {
		return v.module[:len(v.module)-1]
	}
	return v.module
}

// argument returns the module call's argument setting a vVariable, or nil.
func (v *vertex) argument() *hcl.Attribute {
	if v.call == nil {
		return nil
	}
	return v.call.Arguments[v.name]
}

func (v *vertex) declRange() *hcl.Range {
	switch v.kind {
	case vResource:
		return v.resource.DeclRange.Ptr()
	case vLocal:
		return v.local.DeclRange.Ptr()
	case vOutput:
		return v.output.DeclRange.Ptr()
	case vProvider:
		if v.pcfg != nil {
			return v.pcfg.DeclRange.Ptr()
		}
	case vCheck:
		return v.check.DeclRange.Ptr()
	case vValidation:
		return v.variable.DeclRange.Ptr()
	}
	return nil
}
