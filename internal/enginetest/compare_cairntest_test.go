package enginetest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
)

// cairntestServeEnv makes the test binary serve cairntest (a real
// terraform-plugin-framework provider, protocol 6) instead of running
// tests, so compare scenarios run it as a plugin of both tools with no
// binary to build. Only the mirror's launcher script sets it.
const cairntestServeEnv = "CAIRN_ENGINETEST_SERVE_CAIRNTEST"

// cairntestVersion is the version the mirror gives cairntest.
const cairntestVersion = "0.1.0"

func TestMain(m *testing.M) {
	if os.Getenv(cairntestServeEnv) != "" {
		if err := cairntest.Serve(); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mirrorCairntest puts cairntest into the plugin mirror as
// registry.terraform.io/cairn/cairntest (scenarios name the host, which
// OpenTofu would otherwise replace): a launcher script that runs this
// test binary as the provider.
func mirrorCairntest(t *testing.T, mirror string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(mirror, "registry.terraform.io", "cairn", "cairntest", cairntestVersion, runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\n" + cairntestServeEnv + "=1 exec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "terraform-provider-cairntest_v"+cairntestVersion), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}
