package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/states"
)

// runStateList implements "cairn state list [ADDRESS...]".
func runStateList(m *Meta, args []string) int {
	fs := newFlagSet("state list", m.Stderr)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	cfg, _ := m.loadConfig()
	h, ds := m.openState(cfg, false, 0, "OperationTypeStateList")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	filters := fs.Args()
	h.state().AllInstances(func(addr addrs.AbsResourceInstance, _ *states.Resource, is *states.ResourceInstance) {
		if is.Current == nil || !matchesAny(addr, filters) {
			return
		}
		fmt.Fprintln(m.Stdout, addr)
	})
	return 0
}

// matchesAny reports whether addr is, or is an instance of, one of the
// filter addresses (none means everything).
func matchesAny(addr addrs.AbsResourceInstance, filters []string) bool {
	if len(filters) == 0 {
		return true
	}
	s := addr.String()
	for _, f := range filters {
		if s == f || strings.HasPrefix(s, f+"[") || addr.ContainingResource().String() == f {
			return true
		}
	}
	return false
}

// runStateShow implements "cairn state show ADDRESS".
func runStateShow(m *Meta, args []string) int {
	fs := newFlagSet("state show", m.Stderr)
	noColorFlag(fs, m)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() != 1 {
		return m.errorf("Exactly one argument expected", "state show takes the address of one resource instance, e.g. terraform_data.a.")
	}
	addr, ads := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if ads.HasErrors() {
		return m.fail(diags.Diagnostics{}.Append(ads))
	}
	cfg, _ := m.loadConfig()
	h, ds := m.openState(cfg, false, 0, "OperationTypeStateShow")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	st := h.state()
	rs := st.Resource(addr.ContainingResource())
	is := st.ResourceInstance(addr)
	if rs == nil || is == nil || is.Current == nil {
		return m.errorf("No instance found for the given address!",
			"This command requires that the address references one specific instance. To view the available instances, use \"cairn state list\". Please modify the address to reference a specific instance.")
	}
	lib, rds := m.providerLibrary(cfg)
	if rds.HasErrors() {
		return m.fail(rds)
	}
	schemas, sds := lib.Schemas(context.Background(), []addrs.Provider{rs.ProviderConfig.Provider})
	if sds.HasErrors() {
		return m.fail(sds)
	}
	schema, _ := schemas.ResourceTypeSchema(rs.ProviderConfig.Provider, addr.Resource.Resource.Mode, addr.Resource.Resource.Type)
	if schema == nil {
		return m.errorf("Unknown resource type", "The provider %s has no schema for %s.", rs.ProviderConfig.Provider.ForDisplay(), addr)
	}
	obj, err := is.Current.Decode(schema.ImpliedType())
	if err != nil {
		return m.errorf("Failed to decode state", "%s: %s.", addr, err)
	}
	// The object may hold a copy of another object's secret (an input
	// copied from an id built from a sensitive name): the whole state's
	// secrets are looked for.
	m.addStateSecrets(context.Background(), lib, st)
	render.StateShow(m.Stdout, addr, obj, schema, m.renderOpts())
	return 0
}

// stateEditFlags are the options of state rm and state mv.
type stateEditFlags struct {
	lock        bool
	lockTimeout durationFlag
	dryRun      bool
	backup      string
}

// runStateRm implements "cairn state rm ADDRESS...": forget objects
// without destroying them.
func runStateRm(m *Meta, args []string) int {
	var f stateEditFlags
	fs := newFlagSet("state rm", m.Stderr)
	m.varOptions(fs)
	f.register(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() == 0 {
		return m.errorf("Invalid number of arguments", "At least one address is required.")
	}
	return m.editState(&f, "OperationTypeStateRm", func(st *states.State) (int, diags.Diagnostics) {
		var ds diags.Diagnostics
		n := 0
		for _, a := range fs.Args() {
			matched := removeMatching(st, a, func(addr addrs.AbsResourceInstance) {
				fmt.Fprintf(m.Stdout, "%s %s\n", map[bool]string{true: "Would remove", false: "Removed"}[f.dryRun], addr)
				n++
			})
			if !matched {
				ds = ds.Append(diags.Errorf("Invalid target address", "No matching objects found. To view the available instances, use \"cairn state list\". Please modify the address to reference a specific instance: %s.", a))
			}
		}
		if !ds.HasErrors() {
			verb := "Successfully removed"
			if f.dryRun {
				verb = "Would have removed"
			}
			fmt.Fprintf(m.Stdout, "%s %d resource instance(s).\n", verb, n)
		}
		return n, ds
	})
}

// removeMatching removes every instance matching the address text (an
// instance, or all instances of a resource) and reports whether any did.
func removeMatching(st *states.State, text string, removed func(addrs.AbsResourceInstance)) bool {
	var matches []addrs.AbsResourceInstance
	st.AllInstances(func(addr addrs.AbsResourceInstance, _ *states.Resource, _ *states.ResourceInstance) {
		if matchesAny(addr, []string{text}) {
			matches = append(matches, addr)
		}
	})
	for _, addr := range matches {
		rs := st.Resource(addr.ContainingResource())
		delete(rs.Instances, addr.Resource.Key)
		if len(rs.Instances) == 0 {
			st.RemoveResource(addr.ContainingResource())
		}
		removed(addr)
	}
	return len(matches) > 0
}
