package command

import (
	"bytes"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/depsfile"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// initFlags are init's provider installation options.
type initFlags struct {
	upgrade    bool
	pluginDirs stringList
	backend    initBackendFlags
	// lockfile is -lockfile: "readonly" keeps the lock file as it is.
	lockfile string
}

// lockfileReadonly is the one -lockfile mode, as Terraform's.
const lockfileReadonly = "readonly"

// installProviders installs every plugin provider the configuration
// needs, as Terraform's init does: the locked version unless -upgrade,
// else the newest one meeting every module's constraints, from -plugin-dir
// or the CLI configuration's methods (local directories, the origin
// registry, network mirrors); each
// checked against the lock file's hashes and recorded there. Built-in
// providers and dev_overrides need nothing. It reports whether the lock
// file was created.
func (m *Meta) installProviders(cfg *configs.Module, f initFlags, builtin func(addrs.Provider) bool) (created bool, ds diags.Diagnostics) {
	cli, ds := m.cliConfig()
	locks, lds := m.loadLocks()
	ds = ds.Append(lds)
	if ds.HasErrors() {
		return false, ds
	}
	hadLocks := len(locks.Providers()) > 0
	if f.lockfile == lockfileReadonly && f.upgrade {
		return false, ds.Append(diags.Errorf("Invalid command-line option", "The -upgrade flag conflicts with -lockfile=readonly."))
	}
	before, beforeBytes := lockedSet(locks), locks.Bytes()
	src := getproviders.Source{Methods: cli.Methods(f.pluginDirs, m.cliEnv(), m.Dir), Platform: getproviders.CurrentPlatform(),
		HTTP: &getproviders.HTTP{Client: registryClient(), Token: func(host string) string { return cli.Token(m.cliEnv(), host) }}}
	in := getproviders.Installer{TargetDir: m.providersDir(), CacheDir: cli.PluginCacheDir}
	required := map[addrs.Provider]bool{}
	changed, selfSigned := false, false
	for _, r := range cfg.ProviderRequirements() {
		p := r.Provider
		if builtin(p) {
			continue
		}
		required[p] = true
		if cli.ProviderInstallation != nil && cli.ProviderInstallation.DevOverrides[p] != "" {
			continue
		}
		ch, auth, pds := m.installProvider(r, locks, src, in, f.upgrade)
		changed = changed || ch
		selfSigned = selfSigned || strings.HasPrefix(auth, "self-signed")
		if ds = ds.Append(pds); pds.HasErrors() {
			return false, ds
		}
	}
	if selfSigned {
		fmt.Fprint(m.Stdout, "\nPartner and community providers are signed by their developers.\n"+
			"If you'd like to know more about provider signing, you can read about it here:\n"+
			"https://www.terraform.io/docs/cli/plugins/signing.html\n")
	}
	for _, l := range locks.Providers() {
		if !required[l.Provider] {
			locks.RemoveProvider(l.Provider)
			changed = true
		}
	}
	if !changed {
		return false, ds
	}
	if f.lockfile == lockfileReadonly {
		if bytes.Equal(beforeBytes, locks.Bytes()) {
			return false, ds
		}
		return false, ds.Append(readonlyLockDiag(before, lockedSet(locks)))
	}
	if hds := depsfile.Save(locks, filepath.Join(m.Dir, lockFileName)); hds.HasErrors() {
		return false, ds.Append(hds)
	}
	return !hadLocks, ds
}

// lockedSet is the set of providers a lock file records.
func lockedSet(locks *depsfile.Locks) map[addrs.Provider]bool {
	set := map[addrs.Provider]bool{}
	for _, l := range locks.Providers() {
		set[l.Provider] = true
	}
	return set
}

// readonlyLockDiag is what init -lockfile=readonly says when the
// selections differ from the lock file, which it leaves unwritten, as
// Terraform does: an error when a provider was added or removed, else
// (a new hash, say) a warning.
func readonlyLockDiag(before, after map[addrs.Provider]bool) diags.Diagnostic {
	same := len(before) == len(after)
	for p := range after {
		same = same && before[p]
	}
	if !same {
		return diags.Errorf("Provider dependency changes detected",
			`Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run "cairn init" without the "-lockfile=readonly" flag.`)
	}
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Provider lock file not updated",
		Detail: `Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run "cairn init" without the "-lockfile=readonly" flag.`}
}

// installProvider selects, installs and locks one provider, printing
// Terraform's progress lines. It reports whether the lock changed and how
// a downloaded package was authenticated ("" otherwise).
func (m *Meta) installProvider(r configs.ProviderRequirement, locks *depsfile.Locks, src getproviders.Source, in getproviders.Installer, upgrade bool) (bool, string, diags.Diagnostics) {
	p := r.Provider
	cs, ds := requirementConstraints(r)
	if ds.HasErrors() {
		return false, "", ds
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
	avail, err := src.Available(p)
	if err != nil {
		return false, "", diags.Diagnostics{}.Append(getproviders.QueryDiagnostic(p, err, nil))
	}
	var locked = lockedVersion(lock)
	pkg, err := getproviders.Select(p, avail, cs, locked, upgrade)
	if err != nil {
		return false, "", diags.Diagnostics{}.Append(getproviders.QueryDiagnostic(p, err, nil))
	}
	if !pkg.Supported() {
		return false, "", diags.Diagnostics{}.Append(getproviders.PlatformDiagnostic(pkg, nil))
	}
	var accept func(string) bool
	var hashes []string
	if lock != nil && lock.Version.Equal(pkg.Version) {
		accept, hashes = lock.Accepts, lock.Hashes
	}
	if lock != nil && !upgrade {
		if _, err := in.Installed(p, pkg.Version, src.Platform, accept); err == nil {
			fmt.Fprintf(m.Stdout, "- Using previously-installed %s v%s\n", p.ForDisplay(), pkg.Version)
			return false, "", nil
		}
	}
	fmt.Fprintf(m.Stdout, "- Installing %s v%s...\n", p.ForDisplay(), pkg.Version)
	inst, err := in.Install(pkg, accept)
	if err != nil {
		return false, "", diags.Diagnostics{}.Append(getproviders.InstallDiagnostic(pkg, err, nil))
	}
	auth := inst.Auth
	if auth == "" {
		auth = "unauthenticated"
	}
	fmt.Fprintf(m.Stdout, "- Installed %s v%s (%s)\n", p.ForDisplay(), pkg.Version, auth)
	locks.SetProvider(p, pkg.Version, cs, append(hashes, inst.Hashes...))
	return true, inst.Auth, nil
}

// lockedVersion is the version a lock records, or nil.
func lockedVersion(l *depsfile.ProviderLock) *version.Version {
	if l == nil {
		return nil
	}
	return l.Version
}

// registryClient is the HTTP client for provider registries and network
// mirrors: the default transport (proxy settings, SSL_CERT_FILE), with a
// bound on how long a server may take to start answering, so a hung
// registry is an error rather than a hung init. Downloads themselves are
// not bounded: a large plugin on a slow link may take minutes.
func registryClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 30 * time.Second
	return &http.Client{Transport: t}
}
