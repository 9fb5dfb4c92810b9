package command

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// applyTimeValues gives a saved plan the values of its ephemeral root
// variables, which the plan file does not keep: from -var, -var-file,
// the tfvars files and TF_VAR_, as when planning. Only those variables
// are read; a required one nobody set is an error, as in Terraform 1.10.
func (m *Meta) applyTimeValues(p *plans.Plan, cfg *configs.Module, flags []varFlag) diags.Diagnostics {
	if len(p.ApplyTimeVariables) == 0 {
		return nil
	}
	raw, ds := m.gatherVariables(flags)
	if ds.HasErrors() {
		return ds
	}
	sub := &configs.Module{SourceDir: cfg.SourceDir, Variables: map[string]*configs.Variable{}}
	given := map[string]eval.RawVariable{}
	for _, name := range p.ApplyTimeVariables {
		v := cfg.Variables[name]
		rv, ok := raw[name]
		switch {
		case v == nil:
			continue
		case ok:
			given[name] = rv
		case v.Default == cty.NilVal:
			ds = ds.Append(diags.At(v.DeclRange, "No value for required variable",
				fmt.Sprintf("Variable %q is configured as ephemeral. This type of variables need to be given a value during `cairn plan` and also during `cairn apply`.", name)))
			continue
		}
		sub.Variables[name] = v
	}
	if ds.HasErrors() {
		return ds
	}
	vals, fds := eval.FinalizeVariables(sub, given, m.funcTable(true))
	p.EphemeralValues = vals
	return fds
}
