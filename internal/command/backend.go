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
// nil): the local backend unless the block says "pg". The caller closes
// it.
//
// State encryption (the encryption block, TF_ENCRYPTION) applies to every
// backend alike: each seals what it stores through the same target.
func (m *Meta) backend(cfg *configs.Module) (backends.Backend, diags.Diagnostics) {
	enc, ds := m.encryptionTargets(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	if cfg != nil && cfg.Backend != nil && cfg.Backend.Type == "pg" {
		b, pds := m.pgBackend(cfg.Backend, enc.state)
		return b, ds.Append(pds)
	}
	b, lds := m.localBackend(cfg)
	if ds = ds.Append(lds); ds.HasErrors() {
		return nil, ds
	}
	b.Encryption = enc.state
	return b, ds
}

// localBackend reads backend "local" { path, workspace_dir } from cfg (may
// be nil), resolving relative paths against the working directory.
func (m *Meta) localBackend(cfg *configs.Module) (backends.Local, diags.Diagnostics) {
	b := backends.Local{Path: "terraform.tfstate", WorkspaceDir: "terraform.tfstate.d"}
	if cfg != nil && cfg.Backend != nil {
		attrs, hd := cfg.Backend.Config.JustAttributes()
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
