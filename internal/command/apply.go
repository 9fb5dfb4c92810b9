package command

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/states"
)

// runApply implements "cairn apply [PLANFILE]".
func runApply(m *Meta, args []string) int { return m.apply(args, false) }

// runDestroy implements "cairn destroy": apply with a destroy plan.
func runDestroy(m *Meta, args []string) int { return m.apply(args, true) }

func (m *Meta) apply(args []string, destroy bool) int {
	var c commonFlags
	var autoApprove, destroyFlag, jsonOut bool
	name := "apply"
	if destroy {
		name = "destroy"
	}
	fs := newFlagSet(name, m.Stderr)
	c.register(fs)
	fs.BoolVar(&autoApprove, "auto-approve", false, "Skip interactive approval of the plan.")
	if !destroy {
		fs.BoolVar(&destroyFlag, "destroy", false, "Destroy every object instead.")
	}
	fs.BoolVar(&jsonOut, "json", false, "Write the machine-readable UI stream (JSON lines) instead of text. Requires -auto-approve or a saved plan.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if jsonOut {
		m.startJSONView()
		c.input = false
		if !autoApprove && fs.NArg() == 0 {
			return m.errorf("Plan file or auto-approve required",
				"Cairn cannot ask for interactive approval when -json is set. You can either apply a saved plan file, or enable the -auto-approve option.")
		}
	}
	if c.noColor {
		m.Color = false
	}
	if destroy && c.refreshOnly {
		return m.failUsage(diags.Diagnostics{diags.Errorf("Invalid mode option",
			"The -refresh-only option is not valid for \"cairn destroy\".")}, name)
	}
	mode, ds := planMode(&c, destroy || destroyFlag)
	if ds.HasErrors() {
		return m.failUsage(ds, name)
	}
	switch {
	case fs.NArg() > 1:
		return m.errorf("Too many command line arguments", "Expected at most one positional argument: the path of a saved plan file.")
	case fs.NArg() == 1 && mode == plans.DestroyMode:
		return m.errorf("Invalid arguments", "destroy does not take a plan file; to apply a saved destroy plan, use cairn apply PLANFILE.")
	case fs.NArg() == 1:
		return m.applySaved(&c, fs.Arg(0))
	}
	return m.planAndApply(&c, mode, autoApprove)
}

// planAndApply plans, shows the plan, asks for approval and applies.
func (m *Meta) planAndApply(c *commonFlags, mode plans.Mode, autoApprove bool) int {
	op, ds := m.startOperation(c, "OperationTypeApply")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer op.state.release(m)
	destroy := mode == plans.DestroyMode
	if !destroy {
		if nds := requireConfiguration(op.cfg, "apply"); nds.HasErrors() {
			return m.fail(nds)
		}
	}
	ctx, stop := m.interruptible()
	defer stop()
	p, pds := m.makePlan(ctx, op, c, mode)
	ds = ds.Append(pds)
	if p == nil || ds.HasErrors() {
		return m.fail(ds)
	}
	// A refresh-only plan that found drift asks too, as Terraform does,
	// though it changes nothing remote: it rewrites state.
	asks := p.CanApply() && !autoApprove
	if code := m.showPlan(p, op, planDiagsForApply(ds, p, asks)); code != 0 {
		return code
	}
	if asks {
		if code, ok := m.approve(c, mode, op.state.workspace); !ok {
			return code
		}
	}
	if !p.HasChanges() {
		// Nothing to apply, but refresh results still belong in state
		// (Persist writes only if the content changed). A plan that moves
		// objects has changes (plans.Plan.HasChanges) and is applied like
		// any other, from its prior state, which holds the new addresses.
		if _, err := op.state.mgr.Persist(p.PriorState); err != nil {
			return m.errorf("Failed to persist state", "%s", err)
		}
		m.summary(p, destroy)
		if !destroy {
			return m.appliedOutputs(p.PriorState.Outputs)
		}
		return 0
	}
	return m.runApplyPlan(ctx, op, p, c.parallelism, destroy)
}

// approve asks for confirmation; ok is false when the apply must stop,
// with the exit code to return. Outside the default workspace the
// question names the workspace, as Terraform's does.
func (m *Meta) approve(c *commonFlags, mode plans.Mode, workspace string) (int, bool) {
	if !c.input {
		m.errorf("No approval given", "Apply requires approval, and -input=false disables the prompt. Use -auto-approve to apply without approval.")
		return 1, false
	}
	in := ""
	if workspace != defaultWorkspace {
		in = fmt.Sprintf(" in workspace %q", workspace)
	}
	destroy := mode == plans.DestroyMode
	q, d := "Do you want to perform these actions"+in+"?", "Cairn will perform the actions described above."
	switch mode {
	case plans.DestroyMode:
		q, d = "Do you really want to destroy all resources"+in+"?", "Cairn will destroy all your managed infrastructure, as shown above.\nThere is no undo."
	case plans.RefreshOnlyMode:
		q, d = "Would you like to update the Cairn state to reflect these detected changes?", "Cairn will write these changes to the state without modifying any real infrastructure.\nThere is no undo."
	}
	ok, err := m.confirm(q, d)
	if err != nil {
		m.errorf("Failed to read approval", "%s", err)
		return 1, false
	}
	if !ok {
		word := "Apply"
		if destroy {
			word = "Destroy"
		}
		fmt.Fprintf(m.Stderr, "\nError: %s cancelled.\n", word)
		return 1, false
	}
	return 0, true
}

// applySaved applies a plan file exactly, refusing a stale one.
func (m *Meta) applySaved(c *commonFlags, name string) int {
	// -var options can supply what the encryption block needs to decrypt
	// the plan and the state, as OpenTofu allows since 1.11.
	m.varFlags = c.vars
	p, code := m.loadPlanFile(name, "Failed to load plan file")
	if p == nil {
		return code
	}
	cfg, ds := m.loadConfigSources(p.ConfigSources)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	lib, rds := m.providerLibrary(cfg)
	if rds.HasErrors() {
		return m.fail(ds.Append(rds))
	}
	h, sds := m.openState(cfg, c.lock, c.lockTimeout, "OperationTypeApply")
	if sds.HasErrors() {
		return m.fail(ds.Append(sds))
	}
	defer h.release(m)
	lineage, serial := h.lineageSerial()
	if p.StateLineage != lineage || p.StateSerial != serial {
		return m.errorf("Saved plan is stale",
			"The given plan file can no longer be applied because the state was changed by another operation after the plan was created (plan made against lineage %q serial %d; state is now lineage %q serial %d). Create a new plan.",
			p.StateLineage, p.StateSerial, lineage, serial)
	}
	if vds := m.applyTimeValues(p, cfg, c.vars); vds.HasErrors() {
		return m.fail(ds.Append(vds))
	}
	op := &operation{cfg: cfg, state: h, library: lib}
	ctx, stop := m.interruptible()
	defer stop()
	op.schemas = m.schemasFor(ctx, op.library, p)
	if m.jsonUI != nil {
		for _, msg := range render.PlannedChangeUIMessages(p) {
			m.jsonUI.emit(msg)
		}
	}
	return m.runApplyPlan(ctx, op, p, c.parallelism, p.Mode == plans.DestroyMode)
}

// runApplyPlan applies p, recording every object durably as it finishes,
// and prints the summary and outputs.
func (m *Meta) runApplyPlan(ctx context.Context, op *operation, p *plans.Plan, parallelism int, destroy bool) int {
	base, err := baseFile(op.state, p)
	if err != nil {
		return m.errorf("Failed to persist state", "Recording the refreshed state: %s.", err)
	}
	rec, err := op.state.mgr.BeginApply(base)
	if err != nil {
		return m.errorf("Failed to persist state", "Starting the state journal: %s.", err)
	}
	if fn, ok := rec.(backends.FailureNotifier); ok {
		// Storage lost for good: what new operations finish could not be
		// recorded, so stop starting them, as an interrupt does.
		var stop context.CancelFunc
		ctx, stop = context.WithCancel(ctx)
		defer stop()
		fn.OnFailure(func() {
			m.notice("\nThe state storage cannot be reached; no new operations will be started.\n")
			stop()
		})
	}
	hooks := newUIHooks(m)
	ds := applying.Apply(ctx, applying.Options{
		Secrets: m.runSecrets(), Plan: p, Config: op.cfg, Providers: op.library, Funcs: m.funcTable(false), Parallelism: parallelism,
		State: rec, Hooks: hooks, Workspace: op.state.workspace, Prepared: op.prepared,
		StateFailureAdvice: stateFailureAdvice(op.state.mgr),
	})
	hooks.stopAll()
	final, cerr := rec.Close()
	if cerr != nil {
		ds = ds.Append(m.closeFailure(op.state.mgr, rec, cerr))
	}
	if len(p.Targets) > 0 {
		ds = ds.Append(incompleteApplyWarning())
	} else if len(p.Excludes) > 0 {
		ds = ds.Append(incompleteExcludeApplyWarning())
	}
	if ds.HasErrors() {
		return m.fail(ds)
	}
	m.showDiags(ds)
	m.summary(p, destroy)
	if final != nil && !destroy {
		return m.appliedOutputs(final.State.Outputs)
	}
	return 0
}

// summary prints "Apply complete!" or "Destroy complete!" with counts.
func (m *Meta) summary(p *plans.Plan, destroy bool) {
	add, change, del := p.Counts()
	sum := render.UIChangeSummary{Import: p.ImportCount(), Add: add, Change: change, Remove: del, Forget: p.ForgetCount(), Operation: "apply"}
	if destroy {
		sum.Operation = "destroy"
	}
	if m.jsonUI != nil {
		m.jsonUI.emit(sum.Message())
		return
	}
	render.ApplySummary(m.Stdout, sum, m.renderOpts())
}

// appliedOutputs prints the root outputs after an apply: values for
// people, sensitive ones hidden; with -json the outputs message, every
// output's type and the values of those not sensitive.
func (m *Meta) appliedOutputs(outputs map[string]*states.OutputValue) int {
	if m.jsonUI == nil {
		render.Outputs(m.Stdout, outputs, m.renderOpts())
		return 0
	}
	msg, err := render.AppliedOutputsUIMessage(outputs, m.secrets.Secrets())
	if err != nil {
		return m.errorf("Failed to render outputs", "%s.", err)
	}
	m.jsonUI.emit(msg)
	return 0
}
