package applying

import (
	"context"
	"sort"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// expandModule publishes how a module call expanded, as planning
// recorded it: module.NAME is then shaped by those instances.
func (a *applier) expandModule(_ context.Context, n plans.Node) diags.Diagnostics {
	e := a.plan.ModuleExpansions[n.Ref]
	var outputs []string
	if mod := a.moduleConfig(e.Parent.Module().Child(e.Call)); mod != nil {
		for name := range mod.Outputs {
			outputs = append(outputs, name)
		}
		sort.Strings(outputs)
	}
	a.env.Values.DeclareModuleCall(e.Parent, e.Call, e.Expansion, outputs)
	return nil
}

// evalVariable evaluates a child module's input variable from its call's
// argument, now that what the argument refers to is applied.
func (a *applier) evalVariable(_ context.Context, n plans.Node) diags.Diagnostics {
	addr := a.plan.Graph.Variables[n.Ref]
	mod := a.moduleConfig(addr.Module.Module())
	if mod == nil || mod.Variables[addr.Variable.Name] == nil || mod.Call == nil {
		return nil
	}
	return a.env.SetModuleVariable(mod.Call, mod.Variables[addr.Variable.Name], addr.Module)
}

// evalModuleOutput evaluates a child module's output for its caller.
func (a *applier) evalModuleOutput(_ context.Context, n plans.Node) diags.Diagnostics {
	addr := a.plan.Graph.ModuleOutputs[n.Ref]
	mod := a.moduleConfig(addr.Module.Module())
	if mod == nil || mod.Outputs[addr.Name] == nil {
		return nil
	}
	return a.env.EvalChildOutput(mod.Outputs[addr.Name], addr.Module)
}

// validateVariable checks again the validation rules of a variable that
// refer to other objects and were not known during planning, now that
// those objects are applied; a false one fails the apply with the rule's
// message, as in Terraform 1.9.
func (a *applier) validateVariable(_ context.Context, n plans.Node) diags.Diagnostics {
	addr := a.plan.Graph.Variables[n.Ref]
	mod := a.moduleConfig(addr.Module.Module())
	if mod == nil || mod.Variables[addr.Variable.Name] == nil {
		return nil
	}
	ds, _ := a.env.ValidateVariableCrossRefs(mod.Variables[addr.Variable.Name], addr.Module)
	return ds
}
