package testfiles

import (
	"context"
	"fmt"

	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// evaluation is what a run's asserts see: the plan, and after an
// apply-mode run the new state.
type evaluation struct {
	mod   *modulerun.Module
	run   *Run
	vars  map[string]cty.Value
	runs  map[string]cty.Value
	plan  *plans.Plan
	state []byte // nil for a plan-mode run
	// outputs and newState are set by assert: the run's root outputs (as
	// run.NAME for later runs) and the state the asserts saw.
	outputs  cty.Value
	newState *states.State
	schemas  providers.Schemas
}

// assert evaluates the run's asserts and returns Pass, Fail (an assert
// is false) or Error (one cannot be evaluated).
// The asserts see base; asserts that call provider::NAME::FUNC see the
// module's root function table over it, with the functions of the
// plugin providers the root module declares, as in "tofu test" (built
// only then: it needs the providers' schemas).
func (ev *evaluation) assert(ctx context.Context, base map[string]function.Function) (Status, diags.Diagnostics) {
	table, ds := base, diags.Diagnostics(nil)
	if callsProviderFunctions(ev.run.Asserts) {
		var closeFuncs func()
		table, closeFuncs, ds = ev.mod.RootFunctions(ctx, base)
		defer closeFuncs()
		if ds.HasErrors() {
			return Error, ds
		}
	}
	scope, sds := ev.scope(ctx, table)
	ds = ds.Append(sds)
	if scope == nil {
		return Error, ds
	}
	status := Pass
	for _, rule := range ev.run.Asserts {
		s, rds := checkAssert(scope, rule.Condition, rule.ErrorMessage, ev.run.Command == Plan)
		ds = ds.Append(rds)
		status = status.Merge(s)
	}
	return status, ds
}

// scope builds the root module's scope over the plan or the new state,
// with output.NAME and run.NAME.
func (ev *evaluation) scope(ctx context.Context, funcs map[string]function.Function) (*lang.Scope, diags.Diagnostics) {
	schemas, ds := ev.mod.Schemas(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	ev.schemas = schemas
	vars := copyVals(ev.vars)
	for k, v := range ev.plan.VariableValues {
		vars[k] = v
	}
	o := eval.StateScopeOptions{Config: ev.mod.Config(), Schemas: schemas, Variables: vars, Funcs: funcs,
		ModuleDir: ".", Workspace: "default"}
	outputs := map[string]cty.Value{}
	if ev.state != nil {
		st, err := readState(ev.state)
		if err != nil {
			return nil, ds.Append(diags.Errorf("Failed to read the test state", "%s.", err))
		}
		o.State, ev.newState = st, st
		for name, out := range st.Outputs {
			v := out.Value
			if out.Sensitive {
				v = v.Mark(marks.Sensitive)
			}
			outputs[name] = v
		}
	} else {
		o.State, o.Planned = ev.plan.PriorState, plannedResources(ev.plan)
		for _, oc := range ev.plan.Outputs {
			if oc.Action != plans.Delete {
				outputs[oc.Name] = oc.After
			}
		}
	}
	ev.outputs = cty.ObjectVal(outputs)
	inner, sds := eval.StateScope(o)
	ds = ds.Append(sds)
	if inner == nil {
		return nil, ds
	}
	scope := *inner
	scope.Data = &testData{Data: inner.Data, outputs: outputs, runs: ev.runs}
	return &scope, ds
}

// plannedResources lists, per managed resource the plan changes, the
// instances it will have after apply with their planned values.
func plannedResources(p *plans.Plan) map[string]map[addrs.InstanceKey]cty.Value {
	out := map[string]map[addrs.InstanceKey]cty.Value{}
	for _, c := range p.Changes {
		if c.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode || c.DeposedKey != addrs.NotDeposed {
			continue
		}
		k := c.Addr.ContainingResource().String()
		if out[k] == nil {
			out[k] = map[addrs.InstanceKey]cty.Value{}
		}
		if c.Action != plans.Delete && c.Action != plans.Forget {
			out[k][c.Addr.Resource.Key] = c.After
		}
	}
	return out
}

// testData is the module's scope data plus what only tests see: the
// root outputs as output.NAME and earlier runs' outputs as run.NAME
// (which references parse as resources of types "output" and "run").
type testData struct {
	lang.Data
	outputs map[string]cty.Value
	runs    map[string]cty.Value
}

// Resource implements lang.Data.
func (d *testData) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	if addr.Mode == addrs.ManagedResourceMode {
		switch addr.Type {
		case "output":
			if v, ok := d.outputs[addr.Name]; ok {
				return v, nil
			}
			return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared output value",
				fmt.Sprintf("An output value with the name %q has not been declared.", addr.Name))}
		case "run":
			if v, ok := d.runs[addr.Name]; ok {
				return v, nil
			}
			return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to unknown run block",
				fmt.Sprintf("The run block %q does not exist within this test file, or has not run yet.", addr.Name))}
		}
	}
	return d.Data.Resource(addr, rng)
}

// checkAssert evaluates one assert. A condition not known in a
// plan-mode run is an error saying so, as in Terraform.
func checkAssert(scope *lang.Scope, cond, msg hcl.Expression, planOnly bool) (Status, diags.Diagnostics) {
	v, ds := scope.EvalExpr(cond, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return Error, ds
	}
	if !v.IsWhollyKnown() {
		detail := "The condition could not be evaluated at this time, a result will be known when this plan is applied."
		if planOnly {
			detail = "Condition expression could not be evaluated at this time. This means you have executed a `run` block with `command = plan` and one of the values your condition depended on is not known until after the plan has been applied. Either remove this value from your condition, or execute an `apply` command from this `run` block."
		}
		return Error, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Unknown condition value",
			Detail: detail, Subject: cond.Range().Ptr(), Values: scope.DescribeValues(cond)})
	}
	v, _ = v.UnmarkDeep()
	b, err := convert.Convert(v, cty.Bool)
	if err != nil || b.IsNull() {
		return Error, ds.Append(diags.At(cond.Range(), "Invalid condition run",
			"Condition expression must return either true or false."))
	}
	if b.True() {
		return Pass, ds
	}
	text, mds := errorMessage(scope, msg)
	ds = ds.Append(mds)
	return Fail, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Test assertion failed",
		Detail: text, Subject: cond.Range().Ptr(), Values: scope.DescribeValues(cond)})
}

// errorMessage evaluates an assert's error_message; a sensitive one is
// withheld.
func errorMessage(scope *lang.Scope, msg hcl.Expression) (string, diags.Diagnostics) {
	v, ds := scope.EvalExpr(msg, cty.String)
	if ds.HasErrors() || v.IsNull() || !v.IsKnown() {
		return "", ds
	}
	if v.ContainsMarked() {
		return "The error message included a sensitive value, so it will not be displayed.", ds
	}
	return v.AsString(), ds
}

// callsProviderFunctions reports whether an assert calls a provider
// function.
func callsProviderFunctions(rules []*configs.CheckRule) bool {
	found := false
	for _, r := range rules {
		for _, e := range []hcl.Expression{r.Condition, r.ErrorMessage} {
			syn, ok := e.(hclsyntax.Expression)
			if !ok {
				continue
			}
			hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
				if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(call.Name, funcs.ProviderFunctionPrefix) {
					found = true
				}
				return nil
			})
		}
	}
	return found
}
