package modinstall

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// RegistryError is a registry module that could not be resolved:
// Summary is Terraform's diagnostic summary for the case.
type RegistryError struct {
	Summary string
	Err     error
}

func (e *RegistryError) Error() string { return e.Summary + ": " + e.Err.Error() }
func (e *RegistryError) Unwrap() error { return e.Err }

// resolveRegistry finds, through the module registry protocol, the
// newest version of a registry source the constraint allows and the
// go-getter package it is downloaded from (its subdirectory joined with
// the source's). announce is called with the version chosen before the
// download location is asked for.
func (f *Fetcher) resolveRegistry(ctx context.Context, src Source, constraint string, announce func(pkg, version string)) (Source, string, error) {
	reg, err := tfaddr.ParseModuleSource(src.String())
	if err != nil {
		return Source{}, "", &RegistryError{"Invalid module source address", err}
	}
	pkg, rc := reg.Package, f.registry
	base, err := rc.modulesBase(ctx, pkg.Host.String())
	if err != nil {
		return Source{}, "", &RegistryError{"Error accessing remote module registry", err}
	}
	available, err := rc.versions(ctx, base, pkg)
	switch {
	case errors.Is(err, errModuleNotFound):
		return Source{}, "", &RegistryError{"Module not found", fmt.Errorf("module %s cannot be found in the module registry at %s", pkg, pkg.Host)}
	case err != nil:
		return Source{}, "", &RegistryError{"Error accessing remote module registry", fmt.Errorf("failed to retrieve available versions for %s from %s: %w", pkg, pkg.Host, err)}
	case len(available) == 0:
		return Source{}, "", &RegistryError{"Module has no versions", fmt.Errorf("module %s has no versions available on %s", pkg, pkg.Host)}
	}
	v, err := selectVersion(available, constraint)
	if err != nil || v == "" {
		return Source{}, "", &RegistryError{"Unresolvable module version constraint", fmt.Errorf("there is no available version of module %s which matches the given version constraint; the newest available version is %s", pkg, newest(available))}
	}
	announce(pkg.String(), v)
	loc, err := rc.location(ctx, base, pkg, v)
	if err != nil {
		return Source{}, "", &RegistryError{"Error accessing remote module registry", fmt.Errorf("failed to retrieve a download URL for %s %s from %s: %w", pkg, v, pkg.Host, err)}
	}
	real, err := ParseSource(loc)
	if err != nil || real.Kind != Remote {
		return Source{}, "", &RegistryError{"Invalid package location from module registry", fmt.Errorf("module registry %s returned invalid source location %q for %s %s", pkg.Host, loc, pkg, v)}
	}
	real.Subdir = joinSubdirs(real.Subdir, reg.Subdir)
	return real, v, nil
}

// registry installs a registry module call, returning its directory and
// the version chosen.
func (w *walk) registry(mc *configs.ModuleCall, key string, src Source, h Hooks) (string, string, diags.Diagnostics) {
	announce := func(pkg, v string) { h.Download(key, pkg, v) }
	var real Source
	var v string
	err := w.fetch(func(ctx context.Context) (err error) {
		real, v, err = w.Fetcher.resolveRegistry(ctx, src, mc.Version, announce)
		return err
	})
	if errors.Is(err, errCanceled) {
		return "", "", diags.Diagnostics{canceledDiag}
	}
	if err != nil {
		var re *RegistryError
		if !errors.As(err, &re) {
			re = &RegistryError{"Error accessing remote module registry", err}
		}
		return "", "", diags.Diagnostics{diags.At(mc.SourceAddrRange, re.Summary,
			fmt.Sprintf("Module %q (%s:%d): %s.", mc.Name, mc.DeclRange.Filename, mc.DeclRange.Start.Line, re.Err))}
	}
	dir, ds := w.remote(mc, key, real, v, h)
	return dir, v, ds
}

// newest names the newest parseable version of a list, for messages.
func newest(available []string) string {
	best, _ := selectVersion(available, "")
	return best
}
