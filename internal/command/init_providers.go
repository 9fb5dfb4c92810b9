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
	var jobs []*providerJob
	for _, r := range cfg.ProviderRequirements() {
		if builtin(r.Provider) {
			continue
		}
		required[r.Provider] = true
		if cli.ProviderInstallation != nil && cli.ProviderInstallation.DevOverrides[r.Provider] != "" {
			continue
		}
		j, jds := m.newProviderJob(r, locks, f.upgrade)
		if ds = ds.Append(jds); jds.HasErrors() {
			return false, ds
		}
		jobs = append(jobs, j)
	}
	if ds = ds.Append(selectProviders(jobs, src, f.upgrade)); ds.HasErrors() {
		return false, ds
	}
	if ds = ds.Append(m.fetchProviders(jobs, in, src.Platform, f.upgrade, cli.PluginCacheMayBreakDependencyLockFile)); ds.HasErrors() {
		return false, ds
	}
	changed, selfSigned := false, false
	for _, j := range jobs {
		if j.reused {
			continue
		}
		changed = true
		selfSigned = selfSigned || strings.HasPrefix(j.inst.Auth, "self-signed")
		locks.SetProvider(j.r.Provider, j.pkg.Version, j.cs, append(j.hashes, j.inst.Hashes...))
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
