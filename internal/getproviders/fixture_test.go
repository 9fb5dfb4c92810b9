package getproviders_test

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// writeMirror builds the filesystem mirror the golden files were made
// from: foo 1.2.0, 1.2.3, 1.3.0 and 2.0.0 unpacked for linux_amd64, and bar
// 0.5.0 packed. The file contents are those given to the real Terraform.
func writeMirror(t *testing.T, dir string) {
	t.Helper()
	for _, v := range []string{"1.2.0", "1.2.3", "1.3.0", "2.0.0"} {
		pkg := filepath.Join(dir, "example.com/test/foo", v, "linux_amd64")
		writeFile(t, filepath.Join(pkg, "terraform-provider-foo_v"+v), fmt.Sprintf("#!/bin/sh\necho foo %s\n", v), 0o755)
	}
	writeZip(t, filepath.Join(dir, "example.com/test/bar/terraform-provider-bar_0.5.0_linux_amd64.zip"), map[string]string{
		"terraform-provider-bar_v0.5.0": "bin",
		"README":                        "readme\n",
	})
}

func writeFile(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := zip.NewWriter(f)
	for name, content := range files {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o755)
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
