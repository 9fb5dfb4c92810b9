package command

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
)

// taintFlags are the options taint and untaint share with Terraform 1.5.7.
type taintFlags struct {
	allowMissing bool
	// operation names the command in the lock info, as Terraform does.
	operation string
	edit      stateEditFlags
}

func (f *taintFlags) register(name string, m *Meta, args []string) ([]string, bool) {
	f.operation = name
	fs := newFlagSet(name, m.Stderr)
	m.varOptions(fs)
	fs.BoolVar(&f.allowMissing, "allow-missing", false, "Succeed (with a warning) when the instance is missing.")
	fs.BoolVar(&f.edit.lock, "lock", true, "Lock the state file while editing it.")
	fs.DurationVar(&f.edit.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.StringVar(&f.edit.backup, "backup", "", "Ignored: the previous snapshot is always kept as <state>.backup.")
	var ignoreRemote bool
	noColorFlag(fs, m)
	fs.BoolVar(&ignoreRemote, "ignore-remote-version", false, "Accepted for Terraform compatibility; the local backend has no remote version.")
	if !m.parseFlags(fs, args) {
		return nil, false
	}
	return fs.Args(), true
}

// runTaint implements "cairn taint ADDRESS": mark an object so that the
// next plan replaces it, without touching the remote object now.
func runTaint(m *Meta, args []string) int {
	var f taintFlags
	rest, ok := f.register("taint", m, args)
	if !ok {
		return 1
	}
	if len(rest) != 1 {
		fmt.Fprintln(m.Stderr, "The taint command expects exactly one argument.")
		return 1
	}
	addr, ads := addrs.ParseAbsResourceInstanceStr(rest[0])
	if ads.HasErrors() {
		return m.fail(diags.Diagnostics{}.Append(ads))
	}
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		fmt.Fprintf(m.Stderr, "Resource instance %s cannot be tainted\n", addr)
		return 1
	}
	return m.setTaint(&f, addr, states.ObjectTainted, "has been marked as tainted")
}

// runUntaint implements "cairn untaint ADDRESS": undo taint, so that the
// next plan keeps the object.
func runUntaint(m *Meta, args []string) int {
	var f taintFlags
	rest, ok := f.register("untaint", m, args)
	if !ok {
		return 1
	}
	if len(rest) != 1 {
		fmt.Fprintln(m.Stderr, "The untaint command expects exactly one argument.")
		return 1
	}
	addr, ads := addrs.ParseAbsResourceInstanceStr(rest[0])
	if ads.HasErrors() {
		return m.fail(diags.Diagnostics{}.Append(ads))
	}
	return m.setTaint(&f, addr, states.ObjectReady, "has been successfully untainted")
}

// setTaint sets the status of addr's current object under the lock and
// persists the state through the normal writer, reporting as Terraform
// 1.5.7 does. The success message comes only after the state is written.
func (m *Meta) setTaint(f *taintFlags, addr addrs.AbsResourceInstance, status states.ObjectStatus, done string) int {
	cfg, _ := m.loadConfig()
	h, ds := m.openState(cfg, f.edit.lock, f.edit.lockTimeout, f.operation)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	if status == states.ObjectReady {
		// OpenTofu 1.12 reminds of an unencrypted method on untaint,
		// not on taint.
		m.showDiags(m.encryptionWarnings())
	}
	st := h.state().DeepCopy()
	missing, ds := taintTarget(st, addr, status)
	if missing && f.allowMissing {
		m.showDiags(diags.Diagnostics{{Severity: diags.Warning, Summary: "No such resource instance",
			Detail: fmt.Sprintf("Resource instance %s was not found, but this is not an error because -allow-missing was set.", addr)}})
		return 0
	}
	if ds.HasErrors() {
		return m.fail(ds)
	}
	if _, err := h.mgr.Persist(st); err != nil {
		fmt.Fprintf(m.Stderr, "Error writing state file: %s\n", err)
		return 1
	}
	fmt.Fprintf(m.Stdout, "Resource instance %s %s.\n", addr, done)
	return 0
}

// taintTarget changes addr's current object in st to status. missing
// reports that there is no instance at all (which -allow-missing
// excuses); every other refusal is only an error.
func taintTarget(st *states.State, addr addrs.AbsResourceInstance, status states.ObjectStatus) (missing bool, ds diags.Diagnostics) {
	noSuch := "No such resource instance"
	if st.Empty() {
		return true, diags.Diagnostics{diags.Errorf(noSuch, "The state currently contains no resource instances whatsoever. This may occur if the configuration has never been applied or if it has recently been destroyed.")}
	}
	rs := st.Resource(addr.ContainingResource())
	is := st.ResourceInstance(addr)
	if rs == nil || is == nil {
		return true, diags.Diagnostics{diags.Errorf(noSuch, "There is no resource instance in the state with the address %s. If the resource configuration has just been added, you must run \"terraform apply\" once to create the corresponding instance(s) before they can be tainted.", addr)}
	}
	obj := is.Current
	switch {
	case obj == nil && len(is.Deposed) != 0:
		return false, diags.Diagnostics{diags.Errorf(noSuch, "Resource instance %s is currently part-way through a create_before_destroy replacement action. Run \"terraform apply\" to complete its replacement before tainting it.", addr)}
	case obj == nil:
		return false, diags.Diagnostics{diags.Errorf(noSuch, "Resource instance %s does not currently have a remote object associated with it, so it cannot be tainted.", addr)}
	case status == states.ObjectReady && obj.Status != states.ObjectTainted:
		return false, diags.Diagnostics{diags.Errorf("Resource instance is not tainted", "Resource instance %s is not currently tainted, and so it cannot be untainted.", addr)}
	}
	// Recorded objects are shared between snapshots and never mutated, so
	// change a copy.
	changed := *obj
	changed.Status = status
	st.SetResourceInstanceCurrent(addr, &changed, rs.ProviderConfig)
	return false, nil
}
