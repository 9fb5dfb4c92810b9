package command

import (
	"context"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
)

// runShow implements "cairn show [-json] [PLANFILE]": the state, or a saved
// plan, for people or (with -json) for tools.
func runShow(m *Meta, args []string) int {
	var jsonOut bool
	fs := newFlagSet("show", m.Stderr)
	fs.BoolVar(&jsonOut, "json", false, "Print Terraform's JSON representation.")
	noColorFlag(fs, m)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 1 {
		return m.errorf("Too many command line arguments", "show takes at most one argument: the path of a saved plan file.")
	}
	ctx := context.Background()
	cfg, _ := m.loadConfig()
	lib, rds := m.providerLibrary(cfg)
	if rds.HasErrors() {
		return m.fail(rds)
	}
	if fs.NArg() == 1 {
		return m.showPlanFile(ctx, lib, fs.Arg(0), jsonOut)
	}
	h, ds := m.openState(cfg, false, 0, "OperationTypeShow")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	st := h.state()
	schemas, sds := lib.Schemas(ctx, st.Providers())
	if sds.HasErrors() {
		return m.fail(sds)
	}
	if jsonOut {
		return m.writeJSON(render.StateJSON(st, schemas))
	}
	if st.Empty() {
		m.Stdout.Write([]byte("No state.\n"))
		return 0
	}
	if err := render.State(m.Stdout, st, schemas, m.renderOpts()); err != nil {
		return m.errorf("Failed to show the state",
			"Cairn printed what it could, but not all of the state: %s. An object that does not match its resource type's schema was written by another version of the provider; the state file is unchanged.", err)
	}
	return 0
}

func (m *Meta) showPlanFile(ctx context.Context, lib *providers.Library, name string, jsonOut bool) int {
	p, code := m.loadPlanFile(name, "Failed to read the given file as a state or plan file")
	if p == nil {
		return code
	}
	m.sources = p.ConfigSources
	schemas := m.schemasFor(ctx, lib, p)
	if jsonOut {
		return m.writeJSON(render.PlanJSON(p, schemas))
	}
	if err := render.Plan(m.Stdout, p, schemas, m.renderOpts()); err != nil {
		return m.errorf("Failed to render plan", "%s", err)
	}
	return 0
}
