package command

import (
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/render"
)

// runMetadataFunctions implements "cairn metadata functions -json": the
// signatures of the built-in functions, in the JSON format Terraform
// 1.5.7 and OpenTofu 1.12.6 write, for editors and language servers. It
// reads no configuration: the functions are the language's, and the
// provider functions a configuration could call belong to providers
// schema -json.
func runMetadataFunctions(m *Meta, args []string) int {
	fs := newFlagSet("metadata functions", m.Stderr)
	var jsonOut bool
	fs.BoolVar(&jsonOut, "json", false, "Print the function signatures as JSON (required).")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if !jsonOut {
		return m.errorf("The -json flag is required",
			"The metadata functions command prints JSON only: run cairn metadata functions -json.")
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "metadata functions takes no arguments.")
	}
	m.machineOutput = true
	return m.writeJSON(render.FunctionsJSON(funcs.Declared(m.Dir)), nil)
}
