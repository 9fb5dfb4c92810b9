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

// PulumiVersion and PulumiYAMLVersion are the Pulumi CLI and YAML
// language host scripts/install-pulumi.sh builds.
const (
	PulumiVersion     = "3.259.0"
	PulumiYAMLVersion = "1.30.0"
)

// Pulumi returns the directory holding the Pulumi CLI, its YAML language
// host and pulumi-schema-check, as scripts/install-pulumi.sh built them
// (CAIRN_PULUMI_DIR, else its cache beside the test providers'), and
// whether they are there.
func Pulumi() (string, bool) {
	dir := os.Getenv("CAIRN_PULUMI_DIR")
	if dir == "" {
		dir = filepath.Join(filepath.Dir(Dir()), "tools", "pulumi-v"+PulumiVersion+"-yaml-v"+PulumiYAMLVersion)
	}
	for _, bin := range []string{"pulumi", "pulumi-language-yaml", "pulumi-schema-check"} {
		if _, err := os.Stat(filepath.Join(dir, bin)); err != nil {
			return dir, false
		}
	}
	return dir, true
}
