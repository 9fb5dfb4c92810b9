package getproviders

import (
	"fmt"
	"path/filepath"

	"golang.org/x/mod/sumdb/dirhash"
)

// HashPrefixH1 starts the package hash scheme Terraform records for local
// packages: the Go modules "h1:" directory hash of the unpacked package.
const HashPrefixH1 = "h1:"

// PackageHashH1 returns the "h1:" hash Terraform records for the unpacked
// package in dir (a symlink to it is followed, as Terraform follows the
// link it makes into a mirror). The error is internal (an unreadable
// directory) and names the directory.
func PackageHashH1(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("hashing provider package %s: %w", dir, err)
	}
	h, err := dirhash.HashDir(real, "", dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("hashing provider package %s: %w", dir, err)
	}
	return h, nil
}

// ZipHashH1 returns the "h1:" hash of a packed provider package: the same
// value PackageHashH1 gives for the directory the zip unpacks to.
func ZipHashH1(zipPath string) (string, error) {
	h, err := dirhash.HashZip(zipPath, dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("hashing provider archive %s: %w", zipPath, err)
	}
	return h, nil
}
