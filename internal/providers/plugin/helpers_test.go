package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
)

// testProviders are the real HashiCorp providers the tests run, as
// scripts/build-test-providers.sh builds them: name → version.
var testProviders = map[string]string{
	"time":   "v0.14.2",
	"random": "v3.9.0",
	"local":  "v2.9.0",
}

// providerBinary returns the path of a real provider binary, looked up in
// CAIRN_TEST_PROVIDERS or the build script's cache, or skips the test
// with the command that builds it.
func providerBinary(tb testing.TB, name string) string {
	tb.Helper()
	dir := os.Getenv("CAIRN_TEST_PROVIDERS")
	if dir == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				tb.Skipf("no home directory to find the test providers in: run scripts/build-test-providers.sh and set CAIRN_TEST_PROVIDERS")
			}
			cache = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(cache, "cairn", "test-providers")
	}
	path := filepath.Join(dir, name+"-"+testProviders[name], "terraform-provider-"+name)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("terraform-provider-%s %s not built (%v): run scripts/build-test-providers.sh", name, testProviders[name], err)
	}
	return path
}

// launch starts a real provider and closes it when the test ends.
func launch(tb testing.TB, name string) *Client {
	tb.Helper()
	c, err := Launch(context.Background(), providerBinary(tb, name), Options{Name: "registry.terraform.io/hashicorp/" + name})
	if err != nil {
		tb.Fatalf("Launch: %v", err)
	}
	tb.Cleanup(func() { _ = c.Close() })
	return c
}

// noErrors fails the test on error diagnostics, naming the step.
func noErrors(tb testing.TB, step string, ds diags.Diagnostics) {
	tb.Helper()
	if ds.HasErrors() {
		tb.Fatalf("%s: %v", step, ds.Err())
	}
}
