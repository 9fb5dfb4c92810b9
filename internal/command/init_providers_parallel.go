package command

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/depsfile"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// providerJob is one required provider on its way through init: its
// constraints and lock entry, then the package selected, then how it
// was installed. Each job is written by one goroutine at a time (select,
// then fetch) and read by installProviders after both phases, which
// alone touches the lock file: the lock is the same whatever order the
// downloads finished in.
type providerJob struct {
	r    configs.ProviderRequirement
	cs   getproviders.Constraints
	lock *depsfile.ProviderLock

	pkg getproviders.Package
	// accept and hashes are the lock's, when it locks the version
	// selected: a download must match them.
	accept func(string) bool
	hashes []string

	reused bool // already installed as locked: nothing downloaded
	inst   getproviders.Installed
}

// newProviderJob reads a requirement's constraints and lock entry and
// prints the line Terraform prints as it starts looking for the
// provider. Jobs are made in provider order, so these lines are too.
func (m *Meta) newProviderJob(r configs.ProviderRequirement, locks *depsfile.Locks, upgrade bool) (*providerJob, diags.Diagnostics) {
	p := r.Provider
	cs, ds := requirementConstraints(r)
	if ds.HasErrors() {
		return nil, ds
	}
	lock := locks.Provider(p)
	switch {
	case lock != nil && !upgrade:
		fmt.Fprintf(m.Stdout, "- Reusing previous version of %s from the dependency lock file\n", p.ForDisplay())
	case len(cs) > 0:
		fmt.Fprintf(m.Stdout, "- Finding %s versions matching %q...\n", p.ForDisplay(), cs.String())
	default:
		fmt.Fprintf(m.Stdout, "- Finding latest version of %s...\n", p.ForDisplay())
	}
	return &providerJob{r: r, cs: cs, lock: lock}, ds
}

// selectProviders asks every job's sources for its versions, in
// parallel, and picks the package each installs: the locked version
// unless upgrade, else the newest the constraints allow.
func selectProviders(jobs []*providerJob, src getproviders.Source, upgrade bool) diags.Diagnostics {
	return runParallel(len(jobs), func(ctx context.Context, i int) diags.Diagnostics {
		j := jobs[i]
		p := j.r.Provider
		avail, err := src.AvailableContext(ctx, p)
		if err != nil {
			return diags.Diagnostics{}.Append(getproviders.QueryDiagnostic(p, err, nil))
		}
		pkg, err := getproviders.Select(p, avail, j.cs, lockedVersion(j.lock), upgrade)
		if err != nil {
			return diags.Diagnostics{}.Append(getproviders.QueryDiagnostic(p, err, nil))
		}
		if !pkg.Supported() {
			return diags.Diagnostics{}.Append(getproviders.PlatformDiagnostic(pkg, nil))
		}
		j.pkg = pkg
		if j.lock != nil && j.lock.Version.Equal(pkg.Version) {
			j.accept, j.hashes = j.lock.Accepts, j.lock.Hashes
		}
		return nil
	}, nil)
}

// fetchProviders installs every selected package: linked from the
// plugin cache when it holds the locked package (see
// Installer.FromCache), else downloaded, downloads in parallel, printing Terraform's lines for each in provider order (see
// installOutput) with a progress line on a terminal.
func (m *Meta) fetchProviders(jobs []*providerJob, in getproviders.Installer, platform getproviders.Platform, upgrade, mayBreakLock bool) diags.Diagnostics {
	out := newInstallOutput(m.Stdout, len(jobs), m.isTerminal(m.Stdout) && m.jsonUI == nil)
	return runParallel(len(jobs), func(ctx context.Context, i int) diags.Diagnostics {
		j := jobs[i]
		p, v := j.r.Provider.ForDisplay(), j.pkg.Version
		if j.lock != nil && !upgrade {
			if _, err := in.Installed(j.r.Provider, v, platform, j.accept); err == nil {
				out.printf(i, "- Using previously-installed %s v%s\n", p, v)
				j.reused = true
				return nil
			}
		}
		if inst, ok, err := in.FromCache(j.pkg, j.accept, mayBreakLock); err != nil {
			return diags.Diagnostics{}.Append(getproviders.InstallDiagnostic(j.pkg, err, nil))
		} else if ok {
			out.printf(i, "- Using %s v%s from the shared cache directory\n", p, v)
			j.inst = inst
			return nil
		}
		out.printf(i, "- Installing %s v%s...\n", p, v)
		label := fmt.Sprintf("%s v%s", p, v)
		inst, err := in.InstallContext(ctx, j.pkg, j.accept, func(done, total int64) { out.progress(i, label, done, total) })
		if err != nil {
			return diags.Diagnostics{}.Append(getproviders.InstallDiagnostic(j.pkg, err, nil))
		}
		auth := inst.Auth
		if auth == "" {
			auth = "unauthenticated"
		}
		out.printf(i, "- Installed %s v%s (%s)\n", p, v, auth)
		j.inst = inst
		return nil
	}, out.finish)
}
