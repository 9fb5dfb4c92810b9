package command

import (
	"fmt"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// defaultWorkspace is the workspace that exists without being created.
const defaultWorkspace = backends.DefaultWorkspace

// backend opens the backend init set up for cfg (cfg may be nil), for
// every command but init: the configuration's block must be the one init
// recorded (see checkBackendInitialized), so that a new or changed block
// never silently starts from another, empty state. The backend is opened
// from the record, as Terraform does, so that the -backend-config
// arguments init merged in (a partial configuration) apply too. The
// caller closes it.
func (m *Meta) backend(cfg *configs.Module) (backends.Backend, diags.Diagnostics) {
	args, ds := m.checkBackendInitialized(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	return m.openBackend(cfg, args)
}

// defaultBackendArgs is the backend of a configuration without a backend
// block: local, at Terraform's default paths.
func defaultBackendArgs() backendArgs {
	return backendArgs{typ: "local"}
}

// openBackend opens the backend a configures through its type's entry in
// backendTypeOf.
//
// State encryption (the encryption block, TF_ENCRYPTION) applies to every
// backend alike: each seals what it stores through the same target.
func (m *Meta) openBackend(cfg *configs.Module, a backendArgs) (backends.Backend, diags.Diagnostics) {
	enc, ds := m.encryptionTargets(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	t, ok := backendTypeOf(a.typ)
	if !ok {
		return nil, ds.Append(diags.At(a.decl, "Unsupported backend type",
			fmt.Sprintf("Cairn has no %q backend.", a.typ)))
	}
	b, bds := t.open(m, a, enc.state)
	return b, ds.Append(bds)
}

// localAttrs are backend "local"'s arguments.
func localAttrs() map[string]cty.Type {
	return map[string]cty.Type{"path": cty.String, "workspace_dir": cty.String}
}

// openLocalBackend opens backend "local".
func openLocalBackend(m *Meta, a backendArgs, enc backends.StateTransform) (backends.Backend, diags.Diagnostics) {
	b := m.localBackend(a)
	b.Encryption = enc
	return b, nil
}

// localStorage is the local backend's two paths.
func localStorage(m *Meta, a backendArgs) (string, diags.Diagnostics) {
	l := m.localBackend(a)
	return "local\x00" + l.Path + "\x00" + l.WorkspaceDir, nil
}

// localBackend reads backend "local" { path, workspace_dir } (Terraform's
// default paths where not given), resolving relative paths against the
// working directory.
func (m *Meta) localBackend(a backendArgs) backends.Local {
	b := backends.Local{Path: "terraform.tfstate", WorkspaceDir: "terraform.tfstate.d"}
	if a.has("path") {
		b.Path = a.str("path")
	}
	if a.has("workspace_dir") {
		b.WorkspaceDir = a.str("workspace_dir")
	}
	for _, p := range []*string{&b.Path, &b.WorkspaceDir} {
		if !filepath.IsAbs(*p) {
			*p = filepath.Join(m.Dir, *p)
		}
	}
	return b
}

// checkBackendInitialized compares the configuration's backend block
// with the one init recorded in .terraform/terraform.tfstate, as
// Terraform 1.5.7 does before every command but init: a block added,
// removed or changed since needs "cairn init", which asks before it
// copies state. A block only written differently (the same arguments)
// needs nothing; its new hash is recorded. No block and no record is the
// default local backend. It returns the arguments to open the backend
// with: the recorded ones, which include init's -backend-config.
func (m *Meta) checkBackendInitialized(cfg *configs.Module) (backendArgs, diags.Diagnostics) {
	doc, err := m.readBackendState()
	if err != nil {
		return backendArgs{}, diags.Diagnostics{diags.Errorf("Failed to load the backend record", "%s", err)}
	}
	var recorded *backendSetting
	if doc != nil {
		recorded = doc.Backend
	}
	blk, bds := m.configuredBackend(cfg)
	if bds.HasErrors() {
		return backendArgs{}, bds
	}
	if blk != nil {
		// The hash ignores what does not decode (as Terraform's does):
		// an argument the backend does not have, or of the wrong type, is
		// reported here rather than left unnoticed beside the record.
		if _, ds := decodeBackendArgs(blk, nil); ds.HasErrors() {
			return backendArgs{}, ds
		}
	}
	summary := `Backend initialization required, please run "cairn init"`
	var reason string
	switch {
	case blk == nil && recorded == nil:
		return defaultBackendArgs(), nil
	case recorded == nil:
		reason = fmt.Sprintf("Initial configuration of the requested backend %q", blk.Type)
	case blk == nil:
		reason = fmt.Sprintf("Unsetting the previously set backend %q", recorded.Type)
	case recorded.Type == blk.Type && recorded.Hash == backendHash(blk):
		return recorded.args()
	case recorded.sameConfig(blockConfigValue(blk)):
		next := *recorded
		next.Hash = backendHash(blk)
		if err := m.writeBackendState(doc, &next); err != nil {
			return backendArgs{}, diags.Diagnostics{diags.Errorf("Failed to record the backend", "%s", err)}
		}
		return recorded.args()
	default:
		// Terraform words this one summary with a colon.
		summary = `Backend initialization required: please run "cairn init"`
		reason = "Backend configuration block has changed"
	}
	return backendArgs{}, diags.Diagnostics{diags.Errorf(summary, backendInitDetail, reason)}
}

// blockConfigValue is blk's configuration alone (no -backend-config) as
// Terraform records it; cty.NilVal when it does not decode.
func blockConfigValue(blk *configs.Backend) cty.Value {
	a, ds := decodeBackendArgs(blk, nil)
	if ds.HasErrors() {
		return cty.NilVal
	}
	return a.value()
}

// backendInitDetail is Terraform's explanation, for Cairn.
const backendInitDetail = `Reason: %s

The "backend" is the interface that Cairn uses to store state,
perform operations, etc. If this message is showing up, it means that the
Cairn configuration you're using is using a custom configuration for
the Cairn backend.

Changes to backend configurations require reinitialization. This allows
Cairn to set up the new configuration, copy existing state, etc. Please run
"cairn init" with either the "-reconfigure" or "-migrate-state" flags to
use the current configuration.

If the change reason above is incorrect, please verify your configuration
hasn't changed and try again. At this point, no changes to your existing
configuration or state have been made.`
