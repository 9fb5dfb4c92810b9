package testkube

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// APIServerVersion is the kube-apiserver release
// scripts/install-kube-apiserver.sh builds.
const APIServerVersion = "1.36.3"

// InstallScript is the script that builds kube-apiserver and installs etcd;
// skip messages and errors name it so a reader knows the fix.
const InstallScript = "scripts/install-kube-apiserver.sh"

// ErrNotInstalled reports that kube-apiserver or etcd was not found. Start
// turns it into a skip; StartMain returns it wrapped, for TestMain to decide.
var ErrNotInstalled = errors.New("kube-apiserver or etcd not installed (run " + InstallScript + "; make test does)")

// Binaries are the paths of the two programs a cluster runs.
type Binaries struct {
	APIServer string
	Etcd      string
}

// FindBinaries locates kube-apiserver (CAIRN_KUBE_APISERVER, else the
// install script's cache under XDG_CACHE_HOME or ~/.cache) and etcd
// (CAIRN_ETCD, else etcd on PATH). The error wraps ErrNotInstalled and
// names what is missing.
func FindBinaries() (Binaries, error) {
	return findBinaries(os.Getenv, exec.LookPath)
}

// findBinaries is FindBinaries with the environment and PATH lookup passed
// in, so tests need not change the process environment.
func findBinaries(getenv func(string) string, lookPath func(string) (string, error)) (Binaries, error) {
	var b Binaries
	b.APIServer = getenv("CAIRN_KUBE_APISERVER")
	if b.APIServer == "" {
		cache := cacheDir(getenv)
		if cache == "" {
			return b, fmt.Errorf("kube-apiserver: no CAIRN_KUBE_APISERVER, XDG_CACHE_HOME or HOME: %w", ErrNotInstalled)
		}
		b.APIServer = filepath.Join(cache, "cairn", "tools", "kube-apiserver-v"+APIServerVersion, "kube-apiserver")
	}
	if !isExecutable(b.APIServer) {
		return b, fmt.Errorf("kube-apiserver not found at %s: %w", b.APIServer, ErrNotInstalled)
	}
	b.Etcd = getenv("CAIRN_ETCD")
	if b.Etcd == "" {
		path, err := lookPath("etcd")
		if err != nil {
			return b, fmt.Errorf("etcd not on PATH: %w", ErrNotInstalled)
		}
		b.Etcd = path
	}
	if !isExecutable(b.Etcd) {
		return b, fmt.Errorf("etcd not found at %s: %w", b.Etcd, ErrNotInstalled)
	}
	return b, nil
}

// cacheDir is XDG_CACHE_HOME, else ~/.cache, the way the install scripts
// spell it. It returns "" when neither can be known.
func cacheDir(getenv func(string) string) string {
	if dir := getenv("XDG_CACHE_HOME"); dir != "" {
		return dir
	}
	home := getenv("HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cache")
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}
