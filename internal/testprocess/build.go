package testprocess

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Build builds the main packages pkgs (import paths, or "." for the
// test's own package) into dir with go build, each binary named after its
// package's directory, and fails tb if one does not build.
func Build(tb testing.TB, dir string, pkgs ...string) {
	tb.Helper()
	if err := build(dir, pkgs...); err != nil {
		tb.Fatal(err)
	}
}

func build(dir string, pkgs ...string) error {
	for _, pkg := range pkgs {
		out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), pkg).CombinedOutput()
		if err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return nil
}

// BuildOnce returns a function that builds the main package pkg as a
// binary called name the first time it is called, and returns the
// binary's path every time: every test and benchmark of a test binary
// then launches one build, as Terraform and Pulumi launch one plugin
// binary. The build outlives every test, so it goes to a directory of its
// own under the system's temporary directory. Keep the function in a
// package-level variable of the test files:
//
//	var buildPlugin = testprocess.BuildOnce(".", "terraform-provider-awscc")
func BuildOnce(pkg, name string) func(tb testing.TB) string {
	once := sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", name+"-test")
		if err != nil {
			return "", err
		}
		bin := filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
		return bin, nil
	})
	return func(tb testing.TB) string {
		tb.Helper()
		bin, err := once()
		if err != nil {
			tb.Fatal(err)
		}
		return bin
	}
}
