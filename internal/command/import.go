package command

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/zclconf/go-cty/cty"
)

// runImport implements "cairn import ADDR ID": adopt an existing remote
// object into state as the resource instance ADDR, whose resource block
// must exist, as terraform import does.
func runImport(m *Meta, args []string) int {
	var c commonFlags
	fs := newFlagSet("import", m.Stderr)
	c.register(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if c.noColor {
		m.Color = false
	}
	if fs.NArg() != 2 {
		return m.errorf("Invalid number of arguments", "The import command expects two arguments: the address to import to (such as aws_instance.web) and the provider's id of the existing object.")
	}
	addr, ads := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if ads.HasErrors() {
		return m.fail(diags.Diagnostics{}.Append(ads))
	}
	op, ds := m.startOperation(&c, "OperationTypeImport")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer op.state.release(m)
	m.showDiags(m.encryptionWarnings())
	vars, vds := m.collectVariables(c.vars)
	if ds = ds.Append(vds); vds.HasErrors() {
		return m.fail(ds)
	}
	m.promptVariables(op.cfg, vars, c.input)
	ctx, stop := m.interruptible()
	defer stop()
	pp := m.refreshProgress()
	onRefresh, done := pp.start, pp.done
	st, ids := planning.Import(ctx, planning.Options{
		Secrets: m.runSecrets(), Config: op.cfg, PrevState: op.state.state(), Variables: vars, Providers: op.library, Funcs: m.funcTable(true), Now: m.Now().UTC(),
		OnRefresh: onRefresh, Workspace: op.state.workspace,
	}, addr, fs.Arg(1), m.importHooks())
	done()
	if ds = ds.Append(ids); ids.HasErrors() {
		return m.fail(ds)
	}
	if _, err := op.state.mgr.Persist(st); err != nil {
		return m.errorf("Failed to persist state", "%s", err)
	}
	m.showDiags(ds)
	fmt.Fprintf(m.Stdout, "\n%s\n\nThe resources that were imported are shown above. These resources are now in\nyour Cairn state and will henceforth be managed by Cairn.\n\n", m.green("Import successful!"))
	return 0
}

// importHooks prints Terraform's progress lines for an import.
func (m *Meta) importHooks() planning.ImportHooks {
	return planning.ImportHooks{
		Importing: func(addr addrs.AbsResourceInstance, id string) {
			fmt.Fprintf(m.Stdout, "%s: Importing from ID %q...\n", m.bold(addr.String()), strings.TrimPrefix(id, "id="))
		},
		Imported: func(addr addrs.AbsResourceInstance, v cty.Value) {
			fmt.Fprintf(m.Stdout, "%s: Import prepared!\n  Prepared %s for import\n", m.green(addr.String()), addr.Resource.Resource.Type)
		},
	}
}
