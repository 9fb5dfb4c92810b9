package command

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/graphfmt"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/render"
)

// runVersion implements "cairn version".
func runVersion(m *Meta, args []string) int {
	if !m.parseFlags(newFlagSet("version", m.Stderr), args) {
		return 1
	}
	fmt.Fprintf(m.Stdout, "Cairn v%s\non %s_%s\n\nTerraform language and state format: %s\n", Version, runtime.GOOS, runtime.GOARCH, configs.LanguageVersion)
	return 0
}

// runInit implements "cairn init": check the configuration loads and that
// every provider it needs is available (all of Cairn's providers are
// built in, so nothing is downloaded).
func runInit(m *Meta, args []string) int {
	fs := newFlagSet("init", m.Stderr)
	var f initFlags
	noColorFlag(fs, m)
	m.varOptions(fs)
	getModules := fs.Bool("get", true, "Install the modules the configuration calls; -get=false uses those installed already, as Terraform's -get=false.")
	fs.BoolVar(&f.upgrade, "upgrade", false, "Select the newest provider versions the constraints allow, ignoring the lock file's selections.")
	fs.Var(&f.pluginDirs, "plugin-dir", "Install providers only from this directory (repeatable), as Terraform's -plugin-dir.")
	fs.StringVar(&f.lockfile, "lockfile", "", `Set a dependency lockfile mode: "readonly" installs what .terraform.lock.hcl records and never writes it.`)
	backendFlags(fs, &f.backend)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if f.lockfile != "" && f.lockfile != lockfileReadonly {
		return m.errorf("Invalid -lockfile option", "The only valid -lockfile mode is %q, not %q.", lockfileReadonly, f.lockfile)
	}
	fmt.Fprintln(m.Stdout)
	if *getModules {
		if code, ok := m.initModules(f.upgrade); !ok {
			return code
		}
	}
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return m.fail(ds)
	}
	fmt.Fprintf(m.Stdout, "%s\n", m.bold("Initializing the backend..."))
	if code, ok := m.initBackend(cfg, f.backend); !ok {
		return code
	}
	fmt.Fprintf(m.Stdout, "\n%s\n", m.bold("Initializing provider plugins..."))
	m.noStateNeeded()
	isBuiltIn := func(p addrs.Provider) bool { return p.IsBuiltIn() || p == awscc.Addr || m.Providers[p] != nil }
	for _, p := range cfg.Providers() {
		if isBuiltIn(p) {
			fmt.Fprintf(m.Stdout, "- Using built-in provider %s\n", p.ForDisplay())
		}
	}
	created, ids := m.installProviders(cfg, f, isBuiltIn)
	if ds = ds.Append(ids); ids.HasErrors() {
		return m.fail(ds)
	}
	lib, rds := m.providerLibrary(cfg)
	if rds.HasErrors() {
		return m.fail(ds.Append(rds))
	}
	for _, p := range cfg.Providers() {
		if pds := lib.Available(p); pds.HasErrors() {
			return m.fail(ds.Append(pds))
		}
	}
	if created {
		fmt.Fprintf(m.Stdout, "\nCairn has created a lock file %s to record the provider\nselections it made above. Include this file in your version control repository\nso that Cairn can guarantee to make the same selections by default when\nyou run \"cairn init\" in the future.\n", m.bold(lockFileName))
	}
	m.showDiags(ds.Append(m.encryptionWarnings()))
	fmt.Fprintf(m.Stdout, "\n%s\n\nYou may now begin working with Cairn. Try running \"cairn plan\" to see\nany changes that are required for your infrastructure.\n", m.green("Cairn has been successfully initialized!"))
	return 0
}

// runValidate implements "cairn validate".
func runValidate(m *Meta, args []string) int {
	fs := newFlagSet("validate", m.Stderr)
	noColorFlag(fs, m)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	cfg, ds := m.loadConfig()
	if !ds.HasErrors() {
		ds = ds.Append(requireConfiguration(cfg, "validate"))
	}
	if !ds.HasErrors() {
		m.noStateNeeded()
		lib, rds := m.providerLibrary(cfg)
		ds = ds.Append(rds)
		if !rds.HasErrors() {
			ds = ds.Append(planning.Validate(context.Background(), cfg, lib, m.funcTable(true)))
		}
		ds = ds.Append(m.validateEncryption(cfg))
	}
	if ds.HasErrors() {
		return m.fail(ds)
	}
	m.showDiags(ds)
	// Terraform's words and blank line; with warnings, wrapped as it
	// wraps them for 78 columns.
	if len(ds) == 0 {
		fmt.Fprintf(m.Stdout, "%s The configuration is valid.\n\n", m.green("Success!"))
	} else {
		fmt.Fprintf(m.Stdout, "%s The configuration is valid, but there were some validation warnings\nas shown above.\n\n", m.green("Success!"))
	}
	return 0
}

// runGraph implements "cairn graph": a graph in Graphviz DOT or as a
// Mermaid flowchart (-format). The default (-type=plan) is the
// configuration's dependency graph; -type=apply makes a plan and prints
// the operation graph apply would run (as terraform graph -type=apply
// does), -type=plan-destroy and -type=plan-refresh-only those of a
// destroy and a refresh-only plan, and -plan=FILE prints a saved plan's.
func runGraph(m *Meta, args []string) int {
	fs := newFlagSet("graph", m.Stderr)
	var typ, planFile, format string
	fs.StringVar(&typ, "type", "plan", "The graph to print: plan (dependencies), or apply, plan-destroy or plan-refresh-only (the operations of such a plan).")
	fs.StringVar(&planFile, "plan", "", "Print the operation graph of this saved plan.")
	fs.StringVar(&format, "format", string(graphfmt.DOT), "The output format: dot (Graphviz) or mermaid (a flowchart GitHub and GitLab render in Markdown).")
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	f := graphfmt.Format(format)
	if !slices.Contains(graphfmt.Formats(), f) {
		return m.errorf("Invalid graph format", "-format must be one of %s, not %q.", formatList(graphfmt.Formats()), format)
	}
	var g *graphfmt.Graph
	switch {
	case planFile != "":
		p, code := m.loadPlanFile(planFile, "Failed to load plan file")
		if p == nil {
			return code
		}
		g = render.OperationGraph(p)
	case typ != "plan":
		mode, ok := graphPlanMode(typ)
		if !ok {
			return m.errorf("Invalid graph type", "-type must be plan, apply, plan-destroy or plan-refresh-only, not %q.", typ)
		}
		var code int
		if g, code = m.graphOfPlan(mode); g == nil {
			return code
		}
	default:
		var code int
		if g, code = m.configGraph(); g == nil {
			return code
		}
	}
	if err := graphfmt.Write(m.Stdout, g, f); err != nil {
		return m.errorf("Failed to write the graph", "%s", err)
	}
	return 0
}

// formatList names the formats for a message: "dot" or "mermaid".
func formatList(fs []graphfmt.Format) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = strconv.Quote(string(f))
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// configGraph loads the configuration and returns its dependency graph,
// or nil and the exit code of the failure it reported.
func (m *Meta) configGraph() (*graphfmt.Graph, int) {
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return nil, m.fail(ds)
	}
	m.noStateNeeded()
	lib, rds := m.providerLibrary(cfg)
	if rds.HasErrors() {
		return nil, m.fail(rds)
	}
	g, gds := planning.ConfigGraph(context.Background(), cfg, lib)
	if gds.HasErrors() {
		return nil, m.fail(gds)
	}
	return g, 0
}

// graphPlanMode says whether a -type value makes a plan (Terraform's
// names for them) and the mode of the plan it makes.
func graphPlanMode(typ string) (plans.Mode, bool) {
	switch typ {
	case "apply":
		return plans.NormalMode, true
	case "plan-destroy":
		return plans.DestroyMode, true
	case "plan-refresh-only":
		return plans.RefreshOnlyMode, true
	}
	return plans.NormalMode, false
}

// graphOfPlan plans (without asking for input) and returns the operation
// graph of the plan, or nil and the exit code of the failure it reported.
func (m *Meta) graphOfPlan(mode plans.Mode) (*graphfmt.Graph, int) {
	c := commonFlags{vars: m.varFlags, parallelism: defaultParallelism, lock: true, refresh: true}
	op, ds := m.startOperation(&c, "OperationTypePlan")
	if ds.HasErrors() {
		return nil, m.fail(ds)
	}
	defer op.state.release(m)
	m.machineOutput = true
	ctx, stop := m.interruptible()
	defer stop()
	p, pds := m.makePlan(ctx, op, &c, mode)
	if ds = ds.Append(pds); p == nil || ds.HasErrors() {
		return nil, m.fail(ds)
	}
	return render.OperationGraph(p), 0
}
