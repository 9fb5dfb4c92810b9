package modinstall

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// fetchParallelism bounds the registry queries and package downloads
// one Install runs at once: they wait on the network (and git), not on
// the cores, and a handful in flight fills a link without opening
// dozens of connections to one server.
const fetchParallelism = 8

// errCanceled is a fetch that did not run, or whose failure came after
// another fetch had failed and canceled it.
var errCanceled = errors.New("canceled after another module failed")

// canceledDiag marks a call abandoned because another failed; Install
// drops it so the user sees the failure that mattered, once.
var canceledDiag = diags.Diagnostic{Severity: diags.Error, Summary: "Module installation canceled",
	Detail: "Another module failed to install first."}

// children installs the calls of mod, whose call path is modPath, each
// call and its own subtree in a goroutine of its own, so that sibling
// and nested packages download at once (bounded by slots). What each
// call tells the hooks is held in a record and replayed to h in call
// order once its subtree is done, and diagnostics are appended in the
// same order: the output and the manifest are the same as a walk one
// call at a time, depth first in call-name order, as Terraform's.
func (w *walk) children(mod *configs.Module, modPath []string, scope pkgScope, h Hooks) diags.Diagnostics {
	var names []string
	var ds diags.Diagnostics
	if w.Static != nil {
		ds = ds.Append(w.Static.CheckConst(mod))
	}
	for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
		mc := mod.ModuleCalls[name]
		// A source or version built from variables and locals is
		// evaluated here, in this module's goroutine, before the call's
		// own goroutine reads it.
		if rds := configs.ResolveCall(mod, mc, w.Static); rds.HasErrors() {
			ds = ds.Append(rds)
			continue
		}
		if mc.SourceAddr == "" || !hclsyntax.ValidIdentifier(name) {
			continue // the loader reports these
		}
		if len(modPath) >= configs.MaxModuleDepth {
			return diags.Diagnostics{diags.At(mc.SourceAddrRange, "Module tree too deep",
				fmt.Sprintf("Module calls nest more than %d levels deep here. Flatten the module structure.", configs.MaxModuleDepth))}
		}
		names = append(names, name)
	}
	records := make([]hookRecord, len(names))
	results := make([]diags.Diagnostics, len(names))
	done := make([]chan struct{}, len(names))
	for i, name := range names {
		done[i] = make(chan struct{})
		go func() {
			defer close(done[i])
			defer recoverInto(&results[i])
			results[i] = w.call(mod, mod.ModuleCalls[name], append(slices.Clone(modPath), name), scope, &records[i])
		}()
	}
	for i := range names {
		<-done[i]
		records[i].replay(h)
		ds = ds.Append(results[i])
	}
	return ds
}

// call installs one call and then, when it loads, the calls below it.
func (w *walk) call(mod *configs.Module, mc *configs.ModuleCall, callPath []string, scope pkgScope, h Hooks) diags.Diagnostics {
	dir, childScope, ds := w.one(mod, mc, strings.Join(callPath, "."), scope, h)
	if ds.HasErrors() {
		return ds
	}
	child, lds := configs.LoadModuleDir(w.Root, dir)
	w.keepSources(child)
	if ds = ds.Append(lds); lds.HasErrors() {
		return ds
	}
	child.Path, child.Parent, child.Call = addrs.Module(callPath), mod, mc
	return ds.Append(w.children(child, callPath, childScope, h))
}

// fetch runs one network step (a registry query, a download) in a slot.
// The first step to fail cancels the walk's others: their errors, most
// likely only that cancellation, come back as errCanceled.
func (w *walk) fetch(step func(ctx context.Context) error) error {
	var err error
	select {
	case w.slots <- struct{}{}:
		err = step(w.ctx)
		<-w.slots
	case <-w.ctx.Done():
		err = w.ctx.Err()
	}
	if err == nil {
		return nil
	}
	w.mu.Lock()
	first := !w.failed
	w.failed = true
	w.mu.Unlock()
	w.cancel()
	if !first {
		return errCanceled
	}
	return err
}

// dropCanceled removes the calls abandoned after the first failure.
func dropCanceled(ds diags.Diagnostics) diags.Diagnostics {
	return slices.DeleteFunc(ds, func(d diags.Diagnostic) bool {
		return d.Summary == canceledDiag.Summary && d.Detail == canceledDiag.Detail
	})
}

// hookRecord is a Hooks that keeps what it hears, to be replayed in
// order. Only the goroutine of one call (and its subtree, whose own
// records it replays into this one) writes it.
type hookRecord struct{ events []func(Hooks) }

func (r *hookRecord) Download(key, pkg, version string) {
	r.events = append(r.events, func(h Hooks) { h.Download(key, pkg, version) })
}

func (r *hookRecord) Install(key, version, dir string) {
	r.events = append(r.events, func(h Hooks) { h.Install(key, version, dir) })
}

func (r *hookRecord) replay(h Hooks) {
	for _, e := range r.events {
		e(h)
	}
}

// settleDownloads makes the tree the same as a walk one call at a time
// would leave: of the keys that share a package, the first in walk
// order holds the download (with its .git or .hg) and the others
// copies. In parallel, whichever key asked first downloaded; its
// directory is swapped with the first key's, whose copy is the same
// package less its dot files.
func (w *walk) settleDownloads() error {
	for pkg, keys := range w.users {
		if len(keys) < 2 {
			continue
		}
		first := slices.MinFunc(keys, walkOrder)
		got, want := w.Fetcher.downloadedInto(pkg), w.abs(w.packageDir(first))
		if got == "" || got == want {
			continue
		}
		tmp := want + ".swap"
		for _, mv := range [][2]string{{got, tmp}, {want, got}, {tmp, want}} {
			if err := os.Rename(mv[0], mv[1]); err != nil {
				return fmt.Errorf("placing the download of %s: %w", Redact(pkg), err)
			}
		}
	}
	return nil
}

// walkOrder compares module keys as a walk depth first in call-name
// order meets them: "a.z" before "b", "a" before "a.b".
func walkOrder(a, b string) int {
	return slices.Compare(strings.Split(a, "."), strings.Split(b, "."))
}

// recoverInto turns a panic of a call's goroutine (a bug: a go-getter
// getter, say) into an error diagnostic, instead of ending the process
// with the other downloads half written.
func recoverInto(ds *diags.Diagnostics) {
	if r := recover(); r != nil {
		*ds = ds.Append(diags.Errorf("Module installation failed", "Internal error while installing a module: %v. This is a bug in Cairn.", r))
	}
}
