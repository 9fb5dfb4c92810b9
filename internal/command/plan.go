package command

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/render"
)

// runPlan implements "cairn plan".
func runPlan(m *Meta, args []string) int {
	var c commonFlags
	var out, genOut string
	var detailed, destroy, jsonOut bool
	fs := newFlagSet("plan", m.Stderr)
	c.register(fs)
	fs.StringVar(&out, "out", "", "Write the plan to the given file, for apply.")
	fs.BoolVar(&detailed, "detailed-exitcode", false, "Exit 0 for no changes, 1 for errors, 2 for changes.")
	fs.BoolVar(&destroy, "destroy", false, "Plan to destroy every object.")
	fs.StringVar(&genOut, "generate-config-out", "", "Write resource blocks for import blocks' targets that have none to the given new file, and plan with them (Terraform 1.5).")
	fs.BoolVar(&jsonOut, "json", false, "Write the machine-readable UI stream (JSON lines) instead of text; show -json describes a saved plan.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if jsonOut {
		// The stream starts before anything else is said, and there is
		// no one to prompt.
		m.startJSONView()
		c.input = false
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "plan takes no positional arguments; to use another directory, use -chdir=%s.", fs.Arg(0))
	}
	if c.noColor {
		m.Color = false
	}
	if genOut != "" {
		g, gds := newConfigGeneration(m.Dir, genOut)
		if gds.HasErrors() {
			return m.fail(gds)
		}
		m.gen = g
	}
	mode, ds := planMode(&c, destroy)
	if ds.HasErrors() {
		return m.failUsage(ds, "plan")
	}
	op, ds := m.startOperation(&c, "OperationTypePlan")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer op.state.release(m)
	m.showDiags(m.encryptionWarnings())
	if mode != plans.DestroyMode {
		if nds := requireConfiguration(op.cfg, "plan"); nds.HasErrors() {
			return m.fail(nds)
		}
	}
	ctx, stop := m.interruptible()
	defer stop()
	p, pds := m.makePlan(ctx, op, &c, mode)
	ds = ds.Append(pds)
	if p == nil || ds.HasErrors() {
		return m.fail(ds)
	}
	if code := m.showPlan(p, op, ds); code != 0 {
		return code
	}
	if out != "" {
		enc, eds := m.encryptionTargets(op.cfg)
		if eds.HasErrors() {
			return m.fail(eds)
		}
		if err := writePlanFile(filepath.Join(m.Dir, out), out, p, enc.plan); err != nil {
			return m.fail(diags.Diagnostics{diags.Errorf("Failed to write plan file", "%s", err)})
		}
	}
	// As in Terraform, the next step is shown, and -detailed-exitcode
	// reports changes, only when applying the plan would do something:
	// a refresh-only plan's drift counts, a normal plan's does not.
	applyable := p.CanApply()
	lead := render.HorizontalRule(m.renderOpts())
	if m.gen != nil && m.gen.blocks != nil {
		lead += fmt.Sprintf("\n\nCairn has generated configuration and written it to %s. Please review\nthe configuration and edit it as necessary before adding it to version\ncontrol.", genOut)
	}
	switch {
	case jsonOut || !applyable:
	case out != "":
		// The last line is Cairn's own: Terraform's text ends with the
		// apply command.
		fmt.Fprintf(m.Stdout, "%s\n\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    cairn apply %q\n\nTo see this plan in a browser: cairn show -html %q\n",
			lead, out, out, out)
	default:
		fmt.Fprintf(m.Stdout, "%s\n\nNote: You didn't use the -out option to save this plan, so Cairn can't\nguarantee to take exactly these actions if you run \"cairn apply\" now.\n",
			lead)
	}
	if detailed && applyable {
		return 2
	}
	return 0
}

// writePlanFile writes the plan atomically, encrypted with enc: a
// half-written plan file must never be applied.
func writePlanFile(path, name string, p *plans.Plan, enc plans.Encryption) error {
	if !filepath.IsAbs(name) {
		name = path
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".cairn-plan-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := plans.WriteEncryptedFile(tmp, p, enc); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// showPlan shows a plan and the diagnostics planning produced: as UI
// messages with -json, as Terraform's text otherwise (warnings after).
// It returns a non-zero exit code when the plan cannot be shown.
func (m *Meta) showPlan(p *plans.Plan, op *operation, ds diags.Diagnostics) int {
	if m.jsonUI != nil {
		code := m.emitPlan(p, op)
		if code == 0 {
			m.showDiags(ds)
		}
		return code
	}
	if err := render.Plan(m.Stdout, p, op.schemas, m.renderOpts()); err != nil {
		return m.errorf("Failed to render plan", "%s", err)
	}
	// Terraform reports the operation's diagnostics after the plan, just
	// before the next step (or the approval prompt).
	m.showDiags(ds)
	return 0
}

// emitPlan writes a plan as machine-readable UI messages (drift, planned
// changes, the summary, outputs): what tools need to decide, without any
// value. It returns a non-zero exit code when the plan cannot be
// described.
func (m *Meta) emitPlan(p *plans.Plan, op *operation) int {
	msgs, err := render.PlanUIMessages(p, op.schemas)
	if err != nil {
		return m.errorf("Failed to render plan", "%s", err)
	}
	for _, msg := range msgs {
		m.jsonUI.emit(msg)
	}
	return 0
}
