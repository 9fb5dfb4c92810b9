// Package depsfile reads and writes the dependency lock file,
// .terraform.lock.hcl, byte for byte as Terraform 1.5.7 writes it: one
// provider block per provider, sorted by address, each with the selected
// version, the normalized constraints it was chosen under and its package
// hashes, sorted. A later run checks an installed package against the
// recorded hashes and refuses one that matches none.
//
// It knows provider addresses (addrs) and version constraints
// (getproviders) but nothing about how packages are found.
//
// Imports:
//
//	deny internal/... # the lock file knows provider addresses and versions, not how packages are found
//	allow internal/addrs internal/getproviders
package depsfile
