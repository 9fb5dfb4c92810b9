// Package testproviders finds the real provider plugins
// scripts/build-test-providers.sh builds (hashicorp time, random and
// local) for tests in several packages: one place that knows the cache
// layout and the versions.
package testproviders

import (
	"os"
	"path/filepath"
)

// Versions are the versions the build script builds, by provider type.
var Versions = map[string]string{"time": "0.14.2", "random": "3.9.0", "local": "2.9.0"}

// Dir is the directory holding the built plugins: CAIRN_TEST_PROVIDERS,
// else the script's cache under XDG_CACHE_HOME or ~/.cache. It need not
// exist.
func Dir() string {
	if dir := os.Getenv("CAIRN_TEST_PROVIDERS"); dir != "" {
		return dir
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "cairn", "test-providers")
}

// Binary returns the path of the named provider's plugin and whether it
// has been built.
func Binary(name string) (string, bool) {
	v, ok := Versions[name]
	if !ok {
		return "", false
	}
	path := filepath.Join(Dir(), name+"-v"+v, "terraform-provider-"+name)
	_, err := os.Stat(path)
	return path, err == nil
}

// OpenTofuVersion is the OpenTofu release scripts/install-opentofu.sh
// builds.
const OpenTofuVersion = "1.12.6"

// OpenTofu returns the path of the tofu binary the install script built
// (CAIRN_TOFU, else its cache beside the test providers') and whether it
// is there.
func OpenTofu() (string, bool) {
	path := os.Getenv("CAIRN_TOFU")
	if path == "" {
		path = filepath.Join(filepath.Dir(Dir()), "tools", "opentofu-v"+OpenTofuVersion, "tofu")
	}
	_, err := os.Stat(path)
	return path, err == nil
}
