package modulerun

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
)

// PlanOptions are a plan's settings beyond a mode and typed variables,
// for front ends that run a module the way the command line's plan does
// ("cairn test" runs with plan_options and -var files).
type PlanOptions struct {
	Mode plans.Mode
	// Variables are typed values (converted to each variable's type);
	// they win over Raw, which holds values as the command line and
	// variable files give them.
	Variables map[string]cty.Value
	Raw       map[string]eval.RawVariable
	// SkipRefresh, ForceReplace and Targets are -refresh=false,
	// -replace and -target.
	SkipRefresh  bool
	ForceReplace []addrs.AbsResourceInstance
	Targets      []addrs.Target
	// ResourceProvider, when set, chooses the provider each resource
	// is planned and applied with (planning's option of the
	// same name); the apply of the plan uses it too.
	ResourceProvider providers.ResourceHook
	// ChildOutput, when set, may replace child module outputs
	// (planning's option of the same name); the apply uses it too.
	ChildOutput func(addr addrs.AbsOutputValue) (cty.Value, bool)
	// Parallelism bounds the concurrent operations of the plan and its
	// apply (-parallelism); 0 is the engine's default, 10.
	Parallelism int
}

// PlanWith is Plan with the command line's plan settings. Raw values of
// variables the module does not declare are left out (a caller passing
// one set of values to several modules), as are typed ones: Plan reports
// those.
func (m *Module) PlanWith(ctx context.Context, o PlanOptions, prior []byte) (*Planned, diags.Diagnostics) {
	raw := map[string]eval.RawVariable{}
	for name, rv := range o.Raw {
		if _, ok := m.cfg.Variables[name]; ok {
			raw[name] = rv
		}
	}
	typed, ds := m.rawVariables(o.Variables)
	if ds.HasErrors() {
		return nil, ds
	}
	for name, rv := range typed {
		raw[name] = rv
	}
	return m.plan(ctx, o, raw, prior)
}

// Plan is the engine's plan the run made, for callers that look at more
// than Result (check results, planned outputs, variable values).
func (p *Planned) Plan() *plans.Plan { return p.plan }

// Schemas returns the schemas of the providers the module uses.
func (m *Module) Schemas(ctx context.Context) (providers.Schemas, diags.Diagnostics) {
	lib := providers.NewLibrary(m.reg)
	defer lib.Close()
	return lib.Schemas(ctx, m.cfg.Providers())
}

// Dir is the module's directory.
func (m *Module) Dir() string { return m.cfg.SourceDir }
