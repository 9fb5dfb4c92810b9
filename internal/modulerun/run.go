package modulerun

import (
	"bytes"
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// Planned is a plan of the module against a prior state, with the values
// it would produce. Apply carries it out.
type Planned struct {
	Result
	plan     *plans.Plan
	prepared *eval.PreparedCache
	lineage  string
	serial   uint64
	// resourceProvider is PlanOptions.ResourceProvider, for the apply.
	resourceProvider providers.ResourceHook
	childOutput      func(addrs.AbsOutputValue) (cty.Value, bool)
	parallelism      int
}

// Plan plans the module in mode with the input variable values vars
// (converted to each variable's type; defaults for those not given)
// against prior, a state v4 document (empty for none). The result's
// State is prior unchanged; its Instances are every resource instance
// the plan keeps or creates (deleted ones are left out, as they will be
// gone) with the planned action and values; Outputs the planned outputs,
// unknown where apply decides them. Problems in the module or the values
// are diagnostics with the module's file and line.
func (m *Module) Plan(ctx context.Context, mode plans.Mode, vars map[string]cty.Value, prior []byte) (*Planned, diags.Diagnostics) {
	raw, ds := m.rawVariables(vars)
	if ds.HasErrors() {
		return nil, ds
	}
	return m.plan(ctx, PlanOptions{Mode: mode}, raw, prior)
}

// plan plans with raw variable values and o's settings (its Variables
// are already in raw).
func (m *Module) plan(ctx context.Context, o PlanOptions, raw map[string]eval.RawVariable, prior []byte) (*Planned, diags.Diagnostics) {
	mode := o.Mode
	st, lineage, serial, err := readState(prior)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to read the module's state", "%s.", err)}
	}
	lib := providers.NewLibrary(m.reg)
	defer lib.Close()
	prepared := eval.NewPreparedCache()
	p, pds := planning.Plan(ctx, planning.Options{
		Mode: mode, Config: m.cfg, PrevState: st, StateLineage: lineage, StateSerial: serial,
		Variables: raw, Providers: lib, Funcs: funcs.Table(m.cfg.SourceDir, funcs.WithPureOnly()),
		Now: m.now().UTC(), Prepared: prepared,
		SkipRefresh: o.SkipRefresh, ForceReplace: o.ForceReplace, Targets: o.Targets,
		ResourceProvider: o.ResourceProvider, ChildOutput: o.ChildOutput, Parallelism: o.Parallelism,
	})
	var ds diags.Diagnostics
	ds = ds.Append(pds)
	if pds.HasErrors() || p == nil {
		return nil, ds
	}
	schemas, sds := lib.Schemas(ctx, p.Providers())
	if ds = ds.Append(sds); sds.HasErrors() {
		return nil, ds
	}
	out := &Planned{plan: p, prepared: prepared, lineage: lineage, serial: serial, resourceProvider: o.ResourceProvider,
		childOutput: o.ChildOutput, parallelism: o.Parallelism}
	out.State = prior
	out.Changes = p.HasChanges()
	if mode == plans.RefreshOnlyMode {
		// A refresh-only plan changes no instance; they are the
		// refreshed state's.
		insts, err := stateInstances(p.PriorState, p, schemas)
		if err != nil {
			return nil, ds.Append(diags.Errorf("Failed to read the module's refreshed state", "%s.", err))
		}
		out.Instances = insts
	} else {
		out.Instances = plannedInstances(p, schemas)
	}
	out.Outputs = plannedOutputs(p)
	return out, ds
}

// Apply carries out p and returns the new state and values: every
// resource instance the new state holds, with the action the plan took
// for it and its new value, and the outputs the new state holds. When
// apply fails part way the result still holds the state as far as it
// got, so the caller can keep what was created; the diagnostics say
// what failed.
func (m *Module) Apply(ctx context.Context, p *Planned) (*Result, diags.Diagnostics) {
	lib := providers.NewLibrary(m.reg)
	defer lib.Close()
	w := &applying.MemoryWriter{State: p.plan.PriorState.DeepCopy()}
	ds := applying.Apply(ctx, applying.Options{
		Plan: p.plan, Config: m.cfg, Providers: lib, Funcs: funcs.Table(m.cfg.SourceDir),
		State: w, Prepared: p.prepared, ResourceProvider: p.resourceProvider, ChildOutput: p.childOutput,
		Parallelism: p.parallelism,
	})
	st := w.State
	doc, err := writeState(st, p.lineage, p.serial+1)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Failed to write the module's state", "%s.", err))
	}
	schemas, sds := lib.Schemas(ctx, st.Providers())
	if ds = ds.Append(sds); sds.HasErrors() {
		return &Result{State: doc}, ds
	}
	res := &Result{State: doc, Changes: p.Changes, Outputs: stateOutputs(st)}
	insts, err := stateInstances(st, p.plan, schemas)
	if err != nil {
		return res, ds.Append(diags.Errorf("Failed to read the module's new state", "%s.", err))
	}
	res.Instances = insts
	return res, ds
}

// rawVariables hands vars to planning as values of a variables file
// whose range is the variable's declaration, so a value of the wrong
// type is reported at the module's own file and line.
func (m *Module) rawVariables(vars map[string]cty.Value) (map[string]eval.RawVariable, diags.Diagnostics) {
	var ds diags.Diagnostics
	raw := make(map[string]eval.RawVariable, len(vars))
	for name, v := range vars {
		decl, ok := m.cfg.Variables[name]
		if !ok {
			ds = ds.Append(diags.Errorf("Unknown module input",
				"The module declares no variable %q. Its inputs are its variable blocks.", name))
			continue
		}
		raw[name] = eval.RawVariable{Source: eval.FromFile, Expr: hcl.StaticExpr(v, decl.DeclRange), Origin: "the component's inputs"}
	}
	return raw, ds
}

// readState reads a state document; empty is a new state with a fresh
// lineage.
func readState(doc []byte) (*states.State, string, uint64, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return states.NewState(), uuid.NewString(), 0, nil
	}
	f, err := statefile.Read(bytes.NewReader(doc))
	if errors.Is(err, statefile.ErrNoState) {
		return states.NewState(), uuid.NewString(), 0, nil
	}
	if err != nil {
		return nil, "", 0, err
	}
	return f.State, f.Lineage, f.Serial, nil
}

func writeState(st *states.State, lineage string, serial uint64) ([]byte, error) {
	return statefile.Marshal(&statefile.File{TerraformVersion: "1.5.7", Lineage: lineage, Serial: serial, State: st})
}
