package command

import (
	"context"

	"github.com/cairn-iac/cairn/internal/render"
)

// runProvidersSchema implements "cairn providers schema -json": the schemas
// of every provider the configuration uses, in the format of `terraform
// providers schema -json`. Nothing is downloaded: Cairn's providers are
// built in. Warnings go to stderr so stdout stays one JSON document.
func runProvidersSchema(m *Meta, args []string) int {
	fs := newFlagSet("providers schema", m.Stderr)
	m.varOptions(fs)
	var jsonOut bool
	fs.BoolVar(&jsonOut, "json", false, "Print the schemas as JSON (required).")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if !jsonOut {
		return m.errorf("The -json flag is required",
			"The providers schema command prints JSON only: run cairn providers schema -json.")
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "providers schema takes no arguments.")
	}
	m.machineOutput = true
	m.allAWSCCTypes = true
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return m.fail(ds)
	}
	lib, rds := m.providerLibrary(cfg)
	ds = ds.Append(rds)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	schemas, sds := lib.Schemas(context.Background(), cfg.Providers())
	ds = ds.Append(sds)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	if len(ds) > 0 {
		render.Diagnostics(m.Stderr, ds, m.sources, render.Options{Color: m.colorOn(m.Stderr)})
	}
	return m.writeJSON(render.ProviderSchemasJSON(schemas), nil)
}
