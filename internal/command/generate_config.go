package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/genconfig"
	"github.com/cairn-iac/cairn/internal/planning"
)

// configGeneration is plan -generate-config-out=FILE (Terraform 1.5): for
// each import block of the root module whose target has no resource
// block, write one into FILE, which must not exist, from the imported
// object, and plan with it as configuration.
//
// It runs in three steps. Loading reads the configuration with an empty
// placeholder block for each such target (placeholders), so the rest of
// the configuration is checked as usual; generate imports the objects
// with that configuration (planning.ImportForConfig), writes FILE, and
// loads the configuration again with FILE's blocks in place of the
// placeholders; the plan then records each block with its import.
type configGeneration struct {
	path string // as given
	name string // FILE's name among the configuration's files
	// files are the configuration's files with the placeholders; inst
	// where its installed modules are.
	files   map[string][]byte
	inst    *configs.InstalledModules
	targets []addrs.ConfigResource
	// blocks holds the written blocks by target instance, for the plan.
	blocks map[addrs.UniqueKey]string
}

// newConfigGeneration checks FILE does not exist yet.
func newConfigGeneration(dir, path string) (*configGeneration, diags.Diagnostics) {
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(dir, path)
	}
	if _, err := os.Stat(full); !errors.Is(err, fs.ErrNotExist) {
		return nil, diags.Diagnostics{diags.Errorf("Target generated file already exists",
			"Cairn can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.")}
	}
	name, err := filepath.Rel(dir, full)
	if err != nil || strings.HasPrefix(name, "..") {
		name = filepath.Base(full)
	}
	return &configGeneration{path: full, name: filepath.ToSlash(name)}, nil
}

// placeholders reloads cfg with an empty resource block for each import
// target the root module does not declare, refusing the targets Terraform
// cannot generate for (an instance key).
func (g *configGeneration) placeholders(dir string, cfg *configs.Module, ds diags.Diagnostics, inst *configs.InstalledModules) (*configs.Module, diags.Diagnostics) {
	var stub strings.Builder
	seen := map[addrs.UniqueKey]bool{}
	var errs diags.Diagnostics
	for _, imp := range cfg.Imports {
		t := imp.Target
		if !t.Module.IsRoot() || t.Resource.Mode != addrs.ManagedResourceMode || cfg.ResourceByAddr(t.Resource) != nil {
			continue
		}
		if !imp.Static || imp.To.Resource.Key != addrs.NoKey {
			to := t.String()
			if imp.Static {
				to = imp.To.String()
			}
			errs = errs.Append(diags.Errorf("Config generation for count and for_each resources not supported.",
				"Your configuration contains an import block with a \"to\" address of %s. This resource instance does not exist in configuration.\n\nIf you intended to target a resource that exists in configuration, please double-check the address. Otherwise, please remove this import block or re-run the plan without the -generate-config-out flag to ignore the import block.", to))
			continue
		}
		if seen[t.UniqueKey()] {
			continue
		}
		seen[t.UniqueKey()] = true
		g.targets = append(g.targets, t)
		fmt.Fprintf(&stub, "resource %q %q {\n", t.Resource.Type, t.Resource.Name)
		if ref := imp.ProviderConfigRef; ref != nil {
			fmt.Fprintf(&stub, "  provider = %s\n", providerRefText(ref))
		}
		stub.WriteString("}\n")
	}
	if errs.HasErrors() {
		return cfg, errs
	}
	if len(g.targets) == 0 {
		return cfg, ds
	}
	g.files, g.inst = maps.Clone(cfg.Sources), inst
	if g.files == nil {
		g.files = map[string][]byte{}
	}
	g.files[g.name] = []byte(stub.String())
	return configs.LoadFilesInstalled(dir, g.files, inst)
}

func providerRefText(ref *configs.ProviderConfigRef) string {
	if ref.Alias != "" {
		return ref.Name + "." + ref.Alias
	}
	return ref.Name
}

// generate imports the targets' objects, writes FILE and returns the
// configuration loaded with it. The caller has checked there are targets.
func (g *configGeneration) generate(ctx context.Context, dir string, opts planning.Options) (*configs.Module, diags.Diagnostics) {
	objs, ds := planning.ImportForConfig(ctx, opts, g.targets)
	if ds.HasErrors() {
		return nil, ds
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Addr.Less(objs[j].Addr) })
	g.blocks = map[addrs.UniqueKey]string{}
	var b strings.Builder
	b.WriteString("# __generated__ by Cairn\n# Please review these resources and move them into your main configuration files.\n")
	for _, o := range objs {
		r := o.Addr.Resource.Resource
		ref := ""
		if imp := importFor(opts.Config, o.Addr); imp != nil && imp.ProviderConfigRef != nil {
			ref = providerRefText(imp.ProviderConfigRef)
		}
		block := strings.TrimSuffix(genconfig.Resource(r.Type, r.Name, ref, o.Schema, o.Value), "\n")
		g.blocks[o.Addr.UniqueKey()] = block
		fmt.Fprintf(&b, "\n# __generated__ by Cairn from %q\n%s\n", o.ID, block)
	}
	if err := writeNewFile(g.path, []byte(b.String())); err != nil {
		return nil, ds.Append(diags.Errorf("Failed to write generated config", "Cairn could not write the generated configuration to %s: %s.", g.path, err))
	}
	g.files[g.name] = []byte(b.String())
	cfg, lds := configs.LoadFilesInstalled(dir, g.files, g.inst)
	return cfg, ds.Append(lds)
}

// importFor is the root import block that targets addr's resource.
func importFor(cfg *configs.Module, addr addrs.AbsResourceInstance) *configs.Import {
	for _, imp := range cfg.Imports {
		if imp.Target.Equal(addr.ContainingResource().Config()) {
			return imp
		}
	}
	return nil
}

// writeNewFile writes a file that must not exist yet.
func writeNewFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// generateConfig runs the generation before the plan: the operation's
// configuration becomes the one with the written blocks, and opts plans
// it, recording each block with its import.
func (m *Meta) generateConfig(ctx context.Context, op *operation, opts *planning.Options) diags.Diagnostics {
	gopts := *opts
	gopts.Targets, gopts.Prepared = nil, nil
	cfg, ds := m.gen.generate(ctx, m.Dir, gopts)
	if ds.HasErrors() {
		return ds
	}
	if v, ok := op.cfg.Sources[planManifestKey]; ok {
		cfg.Sources[planManifestKey] = v
	}
	op.cfg, m.sources = cfg, cfg.Sources
	opts.Config, opts.GeneratedConfig = cfg, m.gen.blocks
	return ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Config generation is experimental",
		Detail: "Generating configuration during import is currently experimental, and the generated configuration format may change in future versions."})
}
