package configs

import (
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// MaxModuleDepth bounds how deeply module calls nest. Terraform has no
// limit, but a tree this deep is a mistake, and stopping keeps a runaway
// tree from exhausting memory.
const MaxModuleDepth = 64

// moduleSource finds the configuration files of a module directory, given
// relative to the root module's in slash form ("." for the root), keyed
// by the names ranges use.
type moduleSource interface {
	files(dir string) (map[string][]byte, diags.Diagnostics)
}

// diskSource reads modules from the file system under root.
type diskSource struct{ root string }

func (s diskSource) files(dir string) (map[string][]byte, diags.Diagnostics) {
	prefix := ""
	if dir != "." {
		prefix = dir + "/"
	}
	if path.IsAbs(dir) {
		// A module installed under an absolute TF_DATA_DIR.
		return readModuleDir(filepath.FromSlash(dir), prefix)
	}
	return readModuleDir(filepath.Join(s.root, filepath.FromSlash(dir)), prefix)
}

// mapSource reads modules from files held in memory (a plan file's).
type mapSource map[string][]byte

func (s mapSource) files(dir string) (map[string][]byte, diags.Diagnostics) {
	out := map[string][]byte{}
	for name, src := range s {
		if path.Dir(name) == dir {
			out[name] = src
		}
	}
	return out, nil
}

// loadTree loads the root module from src and then every module it
// calls, depth first in call-name order, and resolves what needs the
// whole tree: provider configurations and the calls' arguments.
func loadTree(dir string, src moduleSource, inst *InstalledModules) (*Module, diags.Diagnostics) {
	files, ds := src.files(".")
	root, mds := loadModule(dir, files)
	ds = ds.Append(mds)
	if mds.HasErrors() && len(root.ModuleCalls) == 0 {
		return root, ds
	}
	ds = ds.Append(loadChildren(root, root, src, inst))
	if !ds.HasErrors() {
		ds = ds.Append(checkTree(root))
	}
	return root, ds
}

// loadChildren loads the modules parent calls, and theirs.
func loadChildren(root, parent *Module, src moduleSource, inst *InstalledModules) diags.Diagnostics {
	var ds diags.Diagnostics
	if s := inst.static(); s != nil && hasConst(parent) {
		ds = ds.Append(s.CheckConst(parent))
	}
	for _, name := range slices.Sorted(maps.Keys(parent.ModuleCalls)) {
		mc := parent.ModuleCalls[name]
		if mc.SourceExpr != nil || mc.VersionExpr != nil {
			rds := inst.resolveDynamicCall(parent, mc, callKey(parent, mc))
			if ds = ds.Append(rds); rds.HasErrors() {
				continue
			}
		}
		if mc.SourceAddr == "" {
			continue // reported when the block was decoded
		}
		childDir, cds := callDir(parent, mc, inst)
		if cds.HasErrors() {
			ds = ds.Append(cds)
			continue
		}
		if d := checkCall(parent, mc, childDir); d != nil {
			ds = ds.Append(*d)
			continue
		}
		files, fds := src.files(childDir)
		if fds.HasErrors() {
			ds = ds.Append(diags.At(mc.SourceAddrRange, "Unreadable module directory",
				fmt.Sprintf("Module %q refers to %s, which Cairn could not read: %s", mc.Name, childDir, fds[0].Detail)))
			continue
		}
		child, cds := loadModule(root.SourceDir, files)
		ds = ds.Append(cds)
		child.Path, child.Parent, child.Call, child.Dir = parent.Path.Child(name), parent, mc, childDir
		mc.Module = child
		for name, b := range child.Sources {
			root.Sources[name] = b
		}
		ds = ds.Append(loadChildren(root, child, src, inst))
	}
	return ds
}

// callDir is the directory of a call's module relative to the root's: a
// local path joined to the caller's directory (inside a fetched package
// too, as Terraform resolves it), any other source where "init"
// installed it.
func callDir(parent *Module, mc *ModuleCall, inst *InstalledModules) (string, diags.Diagnostics) {
	key := callKey(parent, mc)
	if IsLocalModuleSource(mc.SourceAddr) {
		if mc.Version != "" {
			return "", diags.Diagnostics{diags.At(mc.VersionRange, "Invalid registry module source address",
				fmt.Sprintf("Module %q has a version constraint, but only modules from a module registry have versions. Remove the version argument: a local module has none.", mc.Name))}
		}
		if d := inst.checkDynamicLocal(key, mc); d != nil {
			return "", diags.Diagnostics{*d}
		}
		return path.Clean(path.Join(parent.Dir, strings.ReplaceAll(mc.SourceAddr, `\`, "/"))), nil
	}
	return inst.installedDir(key, mc)
}

// callKey is a call's module key, as the manifest records it: the call
// path joined with dots ("net", "net.subnets").
func callKey(parent *Module, mc *ModuleCall) string {
	return strings.Join(append(slices.Clone([]string(parent.Path)), mc.Name), ".")
}

// checkCall refuses a call that would make the tree infinite: one whose
// directory is that of a module on the path to it, or one too deep.
func checkCall(parent *Module, mc *ModuleCall, childDir string) *diags.Diagnostic {
	for m := parent; m != nil; m = m.Parent {
		if m.Dir == childDir {
			d := diags.At(mc.SourceAddrRange, "Module call cycle",
				fmt.Sprintf("Module %q calls the module in %s, which is already on the path to this call (%s), so the module tree would never end. Remove the call or point it at another module.",
					mc.Name, childDir, moduleDisplayName(m.Path)))
			return &d
		}
	}
	if len(parent.Path) >= MaxModuleDepth {
		d := diags.At(mc.SourceAddrRange, "Module tree too deep",
			fmt.Sprintf("Module calls nest more than %d levels deep here. Flatten the module structure.", MaxModuleDepth))
		return &d
	}
	return nil
}

// moduleDisplayName names a module as messages do.
func moduleDisplayName(p addrs.Module) string {
	if p.IsRoot() {
		return "the root module"
	}
	return p.String()
}

// Descendant returns the module at path p below m, or nil.
func (m *Module) Descendant(p addrs.Module) *Module {
	cur := m
	for _, name := range p {
		mc := cur.ModuleCalls[name]
		if mc == nil || mc.Module == nil {
			return nil
		}
		cur = mc.Module
	}
	return cur
}

// Walk calls fn for m and every module below it, parents before children
// and calls in name order.
func (m *Module) Walk(fn func(*Module)) {
	fn(m)
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		if c := m.ModuleCalls[name].Module; c != nil {
			c.Walk(fn)
		}
	}
}

// checkTree resolves what needs the whole tree and reports what is wrong
// with calls: arguments the child does not declare, required variables not
// given, repetition of a module that configures its own providers, and
// resources whose provider configuration cannot be found.
func checkTree(root *Module) diags.Diagnostics {
	var ds diags.Diagnostics
	root.Walk(func(m *Module) {
		if m.Call != nil {
			ds = ds.Append(checkCallArguments(m.Call, m))
			ds = ds.Append(checkRepeatedProviders(m.Call, m))
		}
		ds = ds.Append(resolveModuleProviders(m))
	})
	return ds.Append(checkModuleImports(root))
}

// checkCallArguments matches a call's arguments with the child's
// variables and keeps them on the call for planning.
func checkCallArguments(mc *ModuleCall, child *Module) diags.Diagnostics {
	attrs, hds := mc.Config.JustAttributes()
	if mc.lifecycleBlock {
		hds = dropLifecycleBlockDiags(hds)
	}
	ds := diags.Diagnostics{}.Append(hds)
	mc.Arguments = attrs
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		if _, ok := child.Variables[name]; !ok {
			ds = ds.Append(diags.At(attrs[name].NameRange, "Unsupported argument",
				fmt.Sprintf("An argument named %q is not expected here.", name)))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(child.Variables)) {
		v := child.Variables[name]
		if _, given := attrs[name]; !given && v.Default == cty.NilVal {
			ds = ds.Append(diags.At(mc.DeclRange, "Missing required argument",
				fmt.Sprintf("The argument %q is required, but no definition was found.", name)))
		}
	}
	return ds
}

// checkRepeatedProviders refuses count, for_each and depends_on on a call
// of a module that has provider blocks: each instance would need its own
// provider configuration, which Terraform does not allow.
func checkRepeatedProviders(mc *ModuleCall, child *Module) diags.Diagnostics {
	if len(child.ProviderConfigs) == 0 || (mc.Count == nil && mc.ForEach == nil && len(mc.DependsOn) == 0) {
		return nil
	}
	return diags.Diagnostics{diags.At(mc.NameRange, "Module is incompatible with count, for_each, and depends_on",
		fmt.Sprintf("The module at %s is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments. Move its provider blocks to the calling module and pass them in with the providers argument.", child.Path))}
}
