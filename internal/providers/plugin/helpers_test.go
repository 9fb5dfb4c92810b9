package plugin

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/testproviders"
)

// providerBinary returns the path of a real provider binary (see
// internal/testproviders), or skips the test with the command that builds
// it.
func providerBinary(tb testing.TB, name string) string {
	tb.Helper()
	path, built := testproviders.Binary(name)
	if !built {
		tb.Skipf("terraform-provider-%s %s not built: run scripts/build-test-providers.sh", name, testproviders.Versions[name])
	}
	return path
}

// launch starts a real provider and closes it when the test ends.
func launch(tb testing.TB, name string) *Client {
	tb.Helper()
	return launchIn(tb, name, "")
}

// launchIn is launch with the process running in directory dir (the
// test's when empty).
func launchIn(tb testing.TB, name, dir string) *Client {
	tb.Helper()
	c, err := Launch(context.Background(), providerBinary(tb, name), Options{Name: "registry.terraform.io/hashicorp/" + name, Dir: dir})
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
