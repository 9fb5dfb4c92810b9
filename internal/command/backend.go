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

// backend opens the backend cfg's backend block configures (cfg may be
// nil), for every command but init: the block must be the one init set
// up (see checkBackendInitialized), so that a new or changed block never
// silently starts from another, empty state. The caller closes it.
func (m *Meta) backend(cfg *configs.Module) (backends.Backend, diags.Diagnostics) {
	if ds := m.checkBackendInitialized(cfg); ds.HasErrors() {
		return nil, ds
	}
	blk, ds := m.configuredBackend(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	return m.openBackend(cfg, blk)
}

// openBackend opens the backend blk configures (nil: the default local
// one): the local backend unless the block says "pg".
//
// State encryption (the encryption block, TF_ENCRYPTION) applies to every
// backend alike: each seals what it stores through the same target.
func (m *Meta) openBackend(cfg *configs.Module, blk *configs.Backend) (backends.Backend, diags.Diagnostics) {
	enc, ds := m.encryptionTargets(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	if blk != nil && blk.Type == "pg" {
		b, pds := m.pgBackend(blk, enc.state)
		return b, ds.Append(pds)
	}
	b, lds := m.localBackend(blk)
	if ds = ds.Append(lds); ds.HasErrors() {
		return nil, ds
	}
	b.Encryption = enc.state
	return b, ds
}

// localBackend reads backend "local" { path, workspace_dir } from blk
// (nil: Terraform's default paths), resolving relative paths against the
// working directory.
func (m *Meta) localBackend(blk *configs.Backend) (backends.Local, diags.Diagnostics) {
	b := backends.Local{Path: "terraform.tfstate", WorkspaceDir: "terraform.tfstate.d"}
	if blk != nil {
		attrs, hd := blk.Config.JustAttributes()
		var ds diags.Diagnostics
		ds = ds.Append(hd)
		for name, a := range attrs {
			dst := map[string]*string{"path": &b.Path, "workspace_dir": &b.WorkspaceDir}[name]
			if dst == nil {
				ds = ds.Append(diags.At(a.NameRange, "Unsupported backend argument",
					fmt.Sprintf("The local backend does not take an argument named %q.", name)))
				continue
			}
			v, vd := a.Expr.Value(nil)
			ds = ds.Append(vd)
			if !vd.HasErrors() && v.Type() == cty.String && !v.IsNull() {
				*dst = v.AsString()
			} else if !vd.HasErrors() {
				ds = ds.Append(diags.At(a.Expr.Range(), "Invalid backend "+name, fmt.Sprintf("The local backend's %s must be a string.", name)))
			}
		}
		if ds.HasErrors() {
			return backends.Local{}, ds
		}
	}
	for _, p := range []*string{&b.Path, &b.WorkspaceDir} {
		if !filepath.IsAbs(*p) {
			*p = filepath.Join(m.Dir, *p)
		}
	}
	return b, nil
}

// checkBackendInitialized compares the configuration's backend block
// with the one init recorded in .terraform/terraform.tfstate, as
// Terraform 1.5.7 does before every command but init: a block added,
// removed or changed since needs "cairn init", which asks before it
// copies state. A block only written differently (the same arguments)
// needs nothing; its new hash is recorded. No block and no record is the
// default local backend.
func (m *Meta) checkBackendInitialized(cfg *configs.Module) diags.Diagnostics {
	doc, err := m.readBackendState()
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to load the backend record", "%s", err)}
	}
	var recorded *backendSetting
	if doc != nil {
		recorded = doc.Backend
	}
	blk, bds := m.configuredBackend(cfg)
	if bds.HasErrors() {
		return bds
	}
	summary := `Backend initialization required, please run "cairn init"`
	var reason string
	switch {
	case blk == nil && recorded == nil:
		return nil
	case recorded == nil:
		reason = fmt.Sprintf("Initial configuration of the requested backend %q", blk.Type)
	case blk == nil:
		reason = fmt.Sprintf("Unsetting the previously set backend %q", recorded.Type)
	case recorded.Type == blk.Type && recorded.Hash == backendHash(blk):
		return nil
	case recorded.sameConfig(blk):
		next := *recorded
		next.Hash = backendHash(blk)
		if err := m.writeBackendState(doc, &next); err != nil {
			return diags.Diagnostics{diags.Errorf("Failed to record the backend", "%s", err)}
		}
		return nil
	default:
		// Terraform words this one summary with a colon.
		summary = `Backend initialization required: please run "cairn init"`
		reason = "Backend configuration block has changed"
	}
	return diags.Diagnostics{diags.Errorf(summary, backendInitDetail, reason)}
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
