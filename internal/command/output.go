package command

import (
	"context"
	"encoding/json"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/states"
)

// runOutput implements "cairn output [-json|-raw] [NAME]".
func runOutput(m *Meta, args []string) int {
	var jsonOut, raw bool
	fs := newFlagSet("output", m.Stderr)
	fs.BoolVar(&jsonOut, "json", false, "Print outputs as JSON.")
	fs.BoolVar(&raw, "raw", false, "Print a string, number or bool output's raw value.")
	noColorFlag(fs, m)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 1 {
		return m.errorf("Too many command line arguments", "output takes at most one argument: the name of an output.")
	}
	if jsonOut && raw {
		return m.errorf("Invalid output format", "The -raw and -json options are mutually exclusive.")
	}
	format := render.OutputHuman
	switch {
	case jsonOut:
		format = render.OutputJSON
	case raw:
		format = render.OutputRaw
	}
	cfg, _ := m.loadConfig()
	h, ds := m.openState(cfg, false, 0, "OperationTypeOutput")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	if format == render.OutputHuman && fs.Arg(0) == "" {
		// The list of every output is for people: one that reveals a
		// secret of the state is hidden there. A value asked for by
		// name or as JSON is for scripts, and printed as it is.
		if lib, lds := m.providerLibrary(cfg); !lds.HasErrors() {
			m.addStateSecrets(context.Background(), lib, h.state())
		}
	}
	ods := render.Output(m.Stdout, fs.Arg(0), h.state().Outputs, format, m.secrets.Secrets())
	if ods.HasErrors() {
		return m.fail(ods)
	}
	m.showDiags(ods)
	return 0
}

// addStateSecrets adds the secrets of st (render.StateSecrets) to the
// run's, its objects decoded with the schemas lib serves for them. A
// provider whose schema cannot be had leaves its objects' recorded marks
// unread: only what is left out of text for people depends on them.
func (m *Meta) addStateSecrets(ctx context.Context, lib *providers.Library, st *states.State) {
	schemas, _ := lib.Schemas(ctx, st.Providers())
	m.runSecrets().AddSecrets(render.StateSecrets(st, schemas))
}

// writeJSON prints a JSON document (terraform-json types) indented.
func (m *Meta) writeJSON(v any, err error) int {
	if err != nil {
		return m.errorf("Failed to render JSON", "%s", err)
	}
	enc := json.NewEncoder(m.Stdout)
	if err := enc.Encode(v); err != nil {
		return m.errorf("Failed to write JSON", "%s", err)
	}
	return 0
}
