package getproviders

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// ExecutableFile finds the plugin binary in an installed package or a
// dev_overrides directory as Terraform finds it: the first file, in name
// order, named terraform-provider-TYPE exactly or followed by "_" or "."
// (terraform-provider-foo_v1.2.3, terraform-provider-foo.exe). The error
// is for the user and names the directory.
func ExecutableFile(p addrs.Provider, dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("could not read package directory: %w", err)
	}
	prefix := "terraform-provider-" + p.Type
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || (rest != "" && rest[0] != '_' && rest[0] != '.') {
			continue
		}
		return filepath.Join(dir, e.Name()), nil
	}
	return "", fmt.Errorf("could not find executable file starting with %s in %s", prefix, dir)
}
