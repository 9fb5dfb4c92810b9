package command

import (
	"flag"
	"fmt"
	"maps"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
)

type durationFlag = time.Duration

func (f *stateEditFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.lock, "lock", true, "Lock the state file while editing it.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.BoolVar(&f.dryRun, "dry-run", false, "Show what would change without changing anything.")
	fs.StringVar(&f.backup, "backup", "", "Ignored: the previous snapshot is always kept as <state>.backup.")
}

// editState locks the state, lets edit change a copy, and persists the
// copy (with the previous snapshot kept as a backup) when edit reports
// changes and no errors. On any error the state file is untouched.
func (m *Meta) editState(f *stateEditFlags, operation string, edit func(*states.State) (int, diags.Diagnostics)) int {
	cfg, _ := m.loadConfig()
	h, ds := m.openState(cfg, f.lock, f.lockTimeout, operation)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	st := h.state().DeepCopy()
	n, eds := edit(st)
	if eds.HasErrors() {
		return m.fail(eds)
	}
	m.showDiags(eds)
	if n == 0 || f.dryRun {
		return 0
	}
	if _, err := h.mgr.Persist(st); err != nil {
		return m.errorf("Failed to persist state", "%s", err)
	}
	return 0
}

// runStateMv implements "cairn state mv SOURCE DESTINATION": give objects
// a new address without touching the remote objects.
func runStateMv(m *Meta, args []string) int {
	var f stateEditFlags
	fs := newFlagSet("state mv", m.Stderr)
	m.varOptions(fs)
	f.register(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() != 2 {
		return m.errorf("Invalid number of arguments", "Exactly two arguments expected: the source and destination addresses.")
	}
	if srcMod, err := addrs.ParseModuleInstanceStr(fs.Arg(0)); err == nil && !srcMod.IsRoot() {
		dstMod, err := addrs.ParseModuleInstanceStr(fs.Arg(1))
		if err != nil || dstMod.IsRoot() {
			return m.errorf("Invalid target address", "Cannot move %s to %s: a module can only move to another module address.", fs.Arg(0), fs.Arg(1))
		}
		return m.editState(&f, "OperationTypeStateMv", func(st *states.State) (int, diags.Diagnostics) {
			n, ds := moveModule(st, srcMod, dstMod)
			if !ds.HasErrors() {
				m.reportMove(&f, fs.Arg(0), fs.Arg(1), n)
			}
			return n, ds
		})
	}
	src, sds := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	dst, dds := addrs.ParseAbsResourceInstanceStr(fs.Arg(1))
	if ds := (diags.Diagnostics{}).Append(sds, dds); ds.HasErrors() {
		return m.fail(ds)
	}
	wholeResource := src.Resource.Key == addrs.NoKey && !hasIndex(fs.Arg(0))
	return m.editState(&f, "OperationTypeStateMv", func(st *states.State) (int, diags.Diagnostics) {
		var n int
		var ds diags.Diagnostics
		if wholeResource && !hasIndex(fs.Arg(1)) {
			n, ds = moveResource(st, src.ContainingResource(), dst.ContainingResource())
		} else {
			n, ds = moveInstance(st, src, dst)
		}
		if ds.HasErrors() {
			return 0, ds
		}
		m.reportMove(&f, fs.Arg(0), fs.Arg(1), n)
		return n, nil
	})
}

// reportMove prints what state mv moved, as Terraform does.
func (m *Meta) reportMove(f *stateEditFlags, src, dst string, n int) {
	verb := "Move"
	if f.dryRun {
		verb = "Would move"
	}
	fmt.Fprintf(m.Stdout, "%s %q to %q\n", verb, src, dst)
	if !f.dryRun {
		fmt.Fprintf(m.Stdout, "Successfully moved %d object(s).\n", n)
	}
}

// moveModule moves every resource in module instance src, and in the
// modules below it, to the same place under dst. It refuses a move onto
// a module instance that has resources, or from one that has none.
func moveModule(st *states.State, src, dst addrs.ModuleInstance) (int, diags.Diagnostics) {
	var moving []*states.Resource
	for _, rs := range st.Resources {
		if hasModulePrefix(rs.Addr.Module, dst) {
			return 0, diags.Diagnostics{diags.Errorf("Invalid target address", "Cannot move to %s: there is already a module instance at that address in the current state.", dst)}
		}
		if hasModulePrefix(rs.Addr.Module, src) {
			moving = append(moving, rs)
		}
	}
	if len(moving) == 0 {
		return 0, diags.Diagnostics{diags.Errorf("Invalid source address", "Cannot move %s: it does not exist in the state.", src)}
	}
	n := 0
	for _, rs := range moving {
		st.RemoveResource(rs.Addr)
		rest := rs.Addr.Module[len(src):]
		rs.Addr.Module = append(append(addrs.ModuleInstance{}, dst...), rest...)
		st.Resources[rs.Addr.UniqueKey()] = rs
		n += len(rs.Instances)
	}
	return n, nil
}

// hasModulePrefix reports whether m is prefix or below it.
func hasModulePrefix(m, prefix addrs.ModuleInstance) bool {
	return len(m) >= len(prefix) && m[:len(prefix)].Equal(prefix)
}

func hasIndex(s string) bool {
	for _, c := range s {
		if c == '[' {
			return true
		}
	}
	return false
}

func moveResource(st *states.State, src, dst addrs.AbsResource) (int, diags.Diagnostics) {
	rs := st.Resource(src)
	if rs == nil {
		return 0, diags.Diagnostics{diags.Errorf("Invalid source address", "Cannot move %s: it does not exist in the state.", src)}
	}
	if st.Resource(dst) != nil {
		return 0, diags.Diagnostics{diags.Errorf("Invalid target address", "Cannot move to %s: there is already a resource instance at that address in the current state.", dst)}
	}
	if src.Resource.Mode != dst.Resource.Mode || src.Resource.Type != dst.Resource.Type {
		return 0, diags.Diagnostics{diags.Errorf("Invalid state move request", "Cannot move %s to %s: the source and destination must be of the same resource type.", src, dst)}
	}
	st.RemoveResource(src)
	rs.Addr = dst
	st.Resources[dst.UniqueKey()] = rs
	return len(rs.Instances), nil
}

func moveInstance(st *states.State, src, dst addrs.AbsResourceInstance) (int, diags.Diagnostics) {
	rs := st.Resource(src.ContainingResource())
	is := st.ResourceInstance(src)
	if rs == nil || is == nil {
		return 0, diags.Diagnostics{diags.Errorf("Invalid source address", "Cannot move %s: it does not exist in the state.", src)}
	}
	if st.ResourceInstance(dst) != nil {
		return 0, diags.Diagnostics{diags.Errorf("Invalid target address", "Cannot move to %s: there is already a resource instance at that address in the current state.", dst)}
	}
	if src.Resource.Resource.Mode != dst.Resource.Resource.Mode || src.Resource.Resource.Type != dst.Resource.Resource.Type {
		return 0, diags.Diagnostics{diags.Errorf("Invalid state move request", "Cannot move %s to %s: the source and destination must be of the same resource type.", src, dst)}
	}
	// Removing the source's objects clears them in is itself, so they are
	// taken out of it first.
	provider, current, deposed := rs.ProviderConfig, is.Current, maps.Clone(is.Deposed)
	st.SetResourceInstanceCurrent(src, nil, provider)
	for k := range deposed {
		st.SetResourceInstanceDeposed(src, k, nil, provider)
	}
	st.SetResourceInstanceCurrent(dst, current, provider)
	for k, o := range deposed {
		st.SetResourceInstanceDeposed(dst, k, o, provider)
	}
	return 1, nil
}
