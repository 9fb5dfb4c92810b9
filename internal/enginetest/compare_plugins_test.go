package enginetest

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cairn-iac/cairn/internal/testproviders"
)

// pluginMirror builds a filesystem mirror (Terraform's unpacked layout)
// holding the named test providers, for both tools' init -plugin-dir, or
// skips the test when they have not been built. With tofu the providers
// are under registry.opentofu.org as well, where OpenTofu looks for
// hashicorp/NAME.
func pluginMirror(t *testing.T, names []string, tofu bool) string {
	t.Helper()
	mirror := t.TempDir()
	for _, name := range names {
		if name == "cairntest" {
			mirrorCairntest(t, mirror)
			continue
		}
		v, known := testproviders.Versions[name]
		if !known {
			t.Fatalf("unknown test provider %q", name)
		}
		bin, built := testproviders.Binary(name)
		if !built {
			t.Skipf("test provider %s not built: run scripts/build-test-providers.sh (make test does)", name)
		}
		hosts := []string{"registry.terraform.io"}
		if tofu {
			hosts = append(hosts, "registry.opentofu.org")
		}
		for _, host := range hosts {
			dir := filepath.Join(mirror, host, "hashicorp", name, v, runtime.GOOS+"_"+runtime.GOARCH)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := copyExecutable(bin, filepath.Join(dir, "terraform-provider-"+name+"_v"+v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return mirror
}

func copyExecutable(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
