package command

import (
	"flag"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// initBackendFlags are init's backend options, Terraform's.
type initBackendFlags struct {
	migrateState, reconfigure, forceCopy bool
	lock                                 bool
	lockTimeout                          time.Duration
	// input is -input: false makes a question init would ask an error.
	input bool
	// config is -backend-config.
	config backendConfigFlag
}

func backendFlags(fs *flag.FlagSet, f *initBackendFlags) {
	fs.BoolVar(&f.migrateState, "migrate-state", false, "Reconfigure a changed backend, copying the previous backend's states to it.")
	fs.BoolVar(&f.reconfigure, "reconfigure", false, "Use the configured backend as if it were new, without copying the states of the backend recorded by the last init.")
	fs.BoolVar(&f.forceCopy, "force-copy", false, "Copy the states without asking, answering yes to every migration question (implies -migrate-state).")
	fs.BoolVar(&f.lock, "lock", true, "Lock the states on both sides while migrating.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.BoolVar(&f.input, "input", true, "Ask for input when needed.")
	fs.Var(&f.config, "backend-config", backendConfigHelp)
}

// initBackend sets up the configured backend as Terraform 1.5.7's init
// does, and records it in .terraform/terraform.tfstate, which every other
// command checks (checkBackendInitialized). It opens the backend (a pg
// backend's schema and tables are created here). When the block was
// added, changed or removed since the recorded init, the previous
// backend's states are copied to the new one (see migrateBackend): asked
// first, without asking under -force-copy, never from a recorded backend
// under -reconfigure (which disregards the recorded backend, as Terraform
// documents it; a first block's local states are still offered); a
// changed or removed block needs -migrate-state, as in Terraform. ok is
// false when init must stop, with the exit code.
func (m *Meta) initBackend(cfg *configs.Module, f initBackendFlags) (int, bool) {
	if f.migrateState && f.reconfigure {
		fmt.Fprintln(m.Stderr, "The -migrate-state and -reconfigure options are mutually-exclusive")
		return 1, false
	}
	if f.forceCopy {
		f.migrateState = true
	}
	doc, err := m.readBackendState()
	if err != nil {
		return m.errorf("Failed to load the backend record", "%s", err), false
	}
	var recorded *backendSetting
	if doc != nil {
		recorded = doc.Backend
	}
	blk, bds := m.configuredBackend(cfg)
	if bds.HasErrors() {
		return m.fail(bds), false
	}
	next, toArgs, ds := m.nextBackend(blk, recorded, f.config)
	if ds.HasErrors() {
		return m.fail(ds), false
	}
	to, ods := m.openBackend(cfg, toArgs)
	if ds = ds.Append(ods); ds.HasErrors() {
		return m.fail(ds), false
	}
	m.showDiags(ds)
	defer to.Close()
	if blk == nil && recorded == nil || recorded != nil && next != nil && recorded.Type == next.Type && recorded.sameConfig(toArgs.value()) {
		return m.keepBackend(doc, recorded, next)
	}
	if f.reconfigure && recorded != nil {
		// Terraform's -reconfigure disregards the recorded backend:
		// nothing is read from it or copied. Without a record there is
		// nothing to disregard: the default local backend's states are
		// offered as without the option (Terraform asks too), so that a
		// habitual "init -reconfigure" never starts a new backend empty
		// beside the state that tracks every object.
		fmt.Fprintf(m.Stdout, "The states of the previously initialized %q backend were not copied (-reconfigure); it still holds them.\n", recorded.Type)
	} else if code, ok := m.changeBackend(cfg, recorded, toArgs, blk != nil, to, f); !ok {
		return code, false
	}
	if err := m.writeBackendState(doc, next); err != nil {
		return m.errorf("Failed to record the backend", "Writing %s: %s", backendStateFile, err), false
	}
	if next == nil {
		fmt.Fprintf(m.Stdout, "\n%s\n", m.bold(fmt.Sprintf("Successfully unset the backend %q. Cairn will now operate locally.", recorded.Type)))
	} else {
		fmt.Fprintf(m.Stdout, "\n%s\n", m.green(fmt.Sprintf("Successfully configured the backend %q! Cairn will automatically\nuse this backend unless the backend configuration changes.", next.Type)))
	}
	return 0, true
}

// keepBackend is init with the recorded backend unchanged: only a new
// hash (the block written another way) is recorded.
func (m *Meta) keepBackend(doc *backendStateDoc, recorded, next *backendSetting) (int, bool) {
	if recorded != nil && next != nil && recorded.Hash != next.Hash {
		if err := m.writeBackendState(doc, next); err != nil {
			return m.errorf("Failed to record the backend", "Writing %s: %s", backendStateFile, err), false
		}
	}
	return 0, true
}

// nextBackend is the record init is to leave and the arguments to open
// the backend with. Like Terraform, an unchanged block (the recorded hash)
// without -backend-config keeps the recorded configuration, overrides of
// an earlier init included; otherwise the block merged with
// -backend-config is the new configuration, its hash the block's alone.
func (m *Meta) nextBackend(blk *configs.Backend, recorded *backendSetting, flag backendConfigFlag) (*backendSetting, backendArgs, diags.Diagnostics) {
	if blk == nil {
		if flag.set {
			return nil, backendArgs{}, diags.Diagnostics{diags.Errorf("Missing backend configuration",
				"-backend-config was used without a \"backend\" block in the configuration.\n\n"+
					"Add a backend block (an empty one will do) naming the backend to configure.")}
		}
		return nil, defaultBackendArgs(), nil
	}
	if _, ok := backendTypeOf(blk.Type); !ok {
		return nil, backendArgs{}, diags.Diagnostics{diags.At(blk.TypeRange, "Unsupported backend type",
			fmt.Sprintf("Cairn has no %q backend.", blk.Type))}
	}
	if recorded != nil && recorded.Type == blk.Type && recorded.Hash == backendHash(blk) && !flag.set {
		a, ds := recorded.args()
		return recorded, a, ds
	}
	over, ds := m.backendOverrides(blk.Type, flag)
	a, ads := decodeBackendArgs(blk, over)
	if ds = ds.Append(ads); ds.HasErrors() {
		return nil, a, ds
	}
	next, err := newBackendSetting(blk, a)
	if err != nil {
		return nil, a, ds.Append(diags.Errorf("Invalid backend configuration", "%s", err))
	}
	return next, a, ds
}

// changeBackend moves from the recorded backend (nil: the default local
// one) to blk's (nil: the default local one), whose opened backend is to.
// Terraform asks for -migrate-state when a recorded backend changed or
// was removed; a first backend block only asks before copying.
func (m *Meta) changeBackend(cfg *configs.Module, recorded *backendSetting, toArgs backendArgs, hasBlock bool, to backends.Backend, f initBackendFlags) (int, bool) {
	if recorded != nil && !f.migrateState {
		return m.fail(diags.Diagnostics{diags.Errorf("Backend configuration changed",
			"A change in the backend configuration has been detected, which may require migrating existing state.\n\n"+
				"If you wish to attempt automatic migration of the state, use \"cairn init -migrate-state\".\n"+
				"If you wish to store the current configuration with no changes to the state, use \"cairn init -reconfigure\".")}), false
	}
	fromType, toType := "local", toArgs.typ
	fromArgs := defaultBackendArgs()
	if recorded != nil {
		fromType = recorded.Type
		if _, ok := backendTypeOf(fromType); !ok {
			return m.errorf("Unsupported previous backend",
				"The previous init (possibly Terraform's) set up the %q backend, whose states Cairn cannot read. "+
					"Copy them with Terraform, or use the configured backend without them:\n  cairn init -reconfigure", fromType), false
		}
		var ds diags.Diagnostics
		if fromArgs, ds = recorded.args(); ds.HasErrors() {
			return m.fail(ds), false
		}
		if !hasBlock {
			fmt.Fprintf(m.Stdout, "Cairn has detected you're unconfiguring your previously set %q backend.\n", fromType)
		} else {
			fmt.Fprintf(m.Stdout, "%s\n\nCairn has detected that the configuration specified for the backend\nhas changed. Cairn will now check for existing state in the backends.\n\n", m.bold("Backend configuration changed!"))
		}
	}
	if m.sameStorage(fromArgs, toArgs) {
		return 0, true
	}
	from, ds := m.openBackend(cfg, fromArgs)
	if ds.HasErrors() {
		return m.fail(ds.Append(diags.Errorf("Failed to open the previous backend",
			"The states of the previously initialized %q backend must be read to copy them; nothing was changed.", fromType))), false
	}
	defer from.Close()
	mig := backendMigration{from: from, to: to, fromType: fromType, toType: toType, flags: f}
	if ds := m.migrateBackend(mig); ds.HasErrors() {
		return m.fail(ds), false
	}
	return 0, true
}

// sameStorage reports whether two backends keep their states in the
// same place, so that there is nothing to copy between them.
func (m *Meta) sameStorage(a, b backendArgs) bool {
	key := func(x backendArgs) (string, bool) {
		t, ok := backendTypeOf(x.typ)
		if !ok {
			return "", false
		}
		k, ds := t.storage(m, x)
		return k, !ds.HasErrors()
	}
	ka, oka := key(a)
	kb, okb := key(b)
	return oka && okb && ka == kb
}
