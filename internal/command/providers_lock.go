package command

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/depsfile"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/hashicorp/go-version"
)

// runProvidersLock implements "cairn providers lock": for each provider
// the configuration requires (or those named), the locked version or
// else the newest one the constraints allow, fetched for every -platform
// (default: this one) into a scratch directory, and the hashes seen
// (each package's h1:, and a registry's signed zh: of every platform)
// merged into .terraform.lock.hcl, as `terraform providers lock` does.
// The source is the origin registry, or only -fs-mirror or -net-mirror:
// the CLI configuration's methods are not used, so the lock records what
// the upstream source vouches for.
func runProvidersLock(m *Meta, args []string) int {
	fs := newFlagSet("providers lock", m.Stderr)
	noColorFlag(fs, m)
	var platforms stringList
	fs.Var(&platforms, "platform", "Fetch and record the hashes of this OS_ARCH platform (repeatable); default: the current one.")
	fsMirror := fs.String("fs-mirror", "", "Fetch the packages from this local directory instead of the origin registry.")
	netMirror := fs.String("net-mirror", "", "Fetch the packages from this network mirror base URL instead of the origin registry.")
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if *fsMirror != "" && *netMirror != "" {
		return m.errorf("Invalid installation method options", "The -fs-mirror and -net-mirror command line options are mutually-exclusive.")
	}
	plats, ds := lockPlatforms(platforms)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	method := getproviders.Method{Kind: getproviders.Direct}
	switch {
	case *fsMirror != "":
		method = getproviders.Method{Kind: getproviders.FilesystemMirror, Dir: getproviders.Dir(*fsMirror)}
	case *netMirror != "":
		method = getproviders.Method{Kind: getproviders.NetworkMirror, URL: *netMirror}
	}
	cfg, cds := m.loadConfig()
	if ds = ds.Append(cds); ds.HasErrors() {
		return m.fail(ds)
	}
	reqs, rds := m.lockRequirements(cfg, fs.Args())
	if ds = ds.Append(rds); ds.HasErrors() {
		return m.fail(ds)
	}
	locks, lds := m.loadLocks()
	if ds = ds.Append(lds); ds.HasErrors() {
		return m.fail(ds)
	}
	cli, cliDs := m.cliConfig()
	if ds = ds.Append(cliDs); ds.HasErrors() {
		return m.fail(ds)
	}
	http := &getproviders.HTTP{Client: registryClient(), Token: func(host string) string { return cli.Token(m.cliEnv(), host) }}
	changed := false
	for _, r := range reqs {
		ch, pds := m.lockProvider(r, locks, plats, getproviders.Source{Methods: []getproviders.Method{method}, HTTP: http})
		changed = changed || ch
		if ds = ds.Append(pds); ds.HasErrors() {
			return m.fail(ds)
		}
	}
	if hds := depsfile.Save(locks, filepath.Join(m.Dir, lockFileName)); hds.HasErrors() {
		return m.fail(ds.Append(hds))
	}
	m.showDiags(ds)
	if changed {
		fmt.Fprintf(m.Stdout, "\n%s %s\n\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n", m.green("Success!"), m.bold("Cairn has updated the lock file."))
	} else {
		fmt.Fprintf(m.Stdout, "\n%s %s\n", m.green("Success!"), m.bold("Cairn has validated the lock file and found no need for changes."))
	}
	return 0
}

// lockPlatforms parses the -platform options, defaulting to this one.
func lockPlatforms(opts []string) ([]getproviders.Platform, diags.Diagnostics) {
	if len(opts) == 0 {
		return []getproviders.Platform{getproviders.CurrentPlatform()}, nil
	}
	var out []getproviders.Platform
	for _, o := range opts {
		p, err := getproviders.ParsePlatform(o)
		if err != nil {
			return nil, diags.Diagnostics{diags.Errorf("Invalid target platform", "The string %q given in the -platform option is not a valid target platform: %s.", o, err)}
		}
		out = append(out, p)
	}
	return out, nil
}

// lockRequirements is the configuration's plugin provider requirements
// (built-in providers need no lock), or just those named on the command
// line, each of which must be required.
func (m *Meta) lockRequirements(cfg *configs.Module, names []string) ([]configs.ProviderRequirement, diags.Diagnostics) {
	var all []configs.ProviderRequirement
	for _, r := range cfg.ProviderRequirements() {
		if !r.Provider.IsBuiltIn() && r.Provider != awscc.Addr && m.Providers[r.Provider] == nil {
			all = append(all, r)
		}
	}
	if len(names) == 0 {
		return all, nil
	}
	var out []configs.ProviderRequirement
	for _, n := range names {
		p, err := addrs.ParseProviderSource(n)
		if err != nil {
			return nil, diags.Diagnostics{diags.Errorf("Invalid provider argument", "Invalid provider address %q: %s.", n, err)}
		}
		i := slices.IndexFunc(all, func(r configs.ProviderRequirement) bool { return r.Provider == p })
		if i < 0 {
			return nil, diags.Diagnostics{diags.Errorf("Invalid provider argument", "The provider %s is not required by the current configuration.", p.ForDisplay())}
		}
		out = append(out, all[i])
	}
	return out, nil
}

// lockProvider fetches one provider for each platform and records the
// union of the old hashes and those seen, printing Terraform's lines. It
// reports whether the lock gained anything.
func (m *Meta) lockProvider(r configs.ProviderRequirement, locks *depsfile.Locks, plats []getproviders.Platform, src getproviders.Source) (bool, diags.Diagnostics) {
	p := r.Provider
	cs, ds := requirementConstraints(r)
	if ds.HasErrors() {
		return false, ds
	}
	old := locks.Provider(p)
	var hashes []string
	var accept func(string) bool
	if old != nil {
		hashes, accept = slices.Clone(old.Hashes), old.Accepts
	}
	var chosen getproviders.Package
	seen := make([][]string, len(plats))
	for i, plat := range plats {
		src.Platform = plat
		pkg, hs, pds := m.fetchForLock(p, cs, lockedVersion(old), plat, src, accept)
		if pds.HasErrors() {
			return false, pds
		}
		chosen, seen[i] = pkg, hs
		hashes = append(hashes, hs...)
	}
	// As Terraform, the summary lines come once every platform is fetched.
	changed := false
	for i, plat := range plats {
		switch {
		case old == nil:
			fmt.Fprintf(m.Stdout, "- Obtained %s checksums for %s; This was a new provider and the checksums for this platform are now tracked in the lock file\n", p.ForDisplay(), plat)
			changed = true
		case !old.Version.Equal(chosen.Version) || slices.ContainsFunc(seen[i], func(h string) bool { return !slices.Contains(old.Hashes, h) }):
			fmt.Fprintf(m.Stdout, "- Obtained %s checksums for %s; Additional checksums for this platform are now tracked in the lock file\n", p.ForDisplay(), plat)
			changed = true
		default:
			fmt.Fprintf(m.Stdout, "- Obtained %s checksums for %s; All checksums for this platform were already tracked in the lock file\n", p.ForDisplay(), plat)
		}
	}
	locks.SetProvider(p, chosen.Version, cs, hashes)
	return changed, nil
}

// fetchForLock selects p's version for one platform and downloads it into
// a scratch directory, returning the hashes to record.
func (m *Meta) fetchForLock(p addrs.Provider, cs getproviders.Constraints, locked *version.Version, plat getproviders.Platform, src getproviders.Source, accept func(string) bool) (getproviders.Package, []string, diags.Diagnostics) {
	avail, err := src.Available(p)
	if err != nil {
		return getproviders.Package{}, nil, diags.Diagnostics{}.Append(getproviders.QueryDiagnostic(p, err, nil))
	}
	pkg, err := getproviders.Select(p, avail, cs, locked, false)
	if err != nil {
		return pkg, nil, diags.Diagnostics{}.Append(getproviders.QueryDiagnostic(p, err, nil))
	}
	if !pkg.Supported() {
		return pkg, nil, diags.Diagnostics{}.Append(getproviders.PlatformDiagnostic(pkg, nil))
	}
	fmt.Fprintf(m.Stdout, "- Fetching %s %s for %s...\n", p.ForDisplay(), pkg.Version, plat)
	tmp, err := os.MkdirTemp("", "cairn-lock-")
	if err != nil {
		return pkg, nil, diags.Diagnostics{diags.Errorf("Failed to create a scratch directory", "%s", err)}
	}
	defer os.RemoveAll(tmp)
	inst, err := getproviders.Installer{TargetDir: tmp}.Install(pkg, accept)
	if err != nil {
		return pkg, nil, diags.Diagnostics{}.Append(getproviders.InstallDiagnostic(pkg, err, nil))
	}
	auth := inst.Auth
	if auth == "" {
		auth = "unauthenticated"
	}
	fmt.Fprintf(m.Stdout, "- Retrieved %s %s for %s (%s)\n", p.ForDisplay(), pkg.Version, plat, auth)
	return pkg, inst.Hashes, nil
}

// requirementConstraints joins every module's version constraints on a
// provider.
func requirementConstraints(r configs.ProviderRequirement) (getproviders.Constraints, diags.Diagnostics) {
	var cs getproviders.Constraints
	for _, vc := range r.Constraints {
		c, err := getproviders.ParseConstraints(vc.Constraint)
		if err != nil {
			return nil, diags.Diagnostics{diags.At(vc.DeclRange, "Invalid version constraint", fmt.Sprintf("%s.", err))}
		}
		cs = append(cs, c...)
	}
	return cs, nil
}
