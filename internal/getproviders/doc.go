// Package getproviders finds provider plugin packages on the local disk,
// the way Terraform 1.5.7's "init" finds them when the installation
// methods are a filesystem mirror, -plugin-dir directories or the implied
// local mirror directories: it lists the versions a place offers, picks the
// newest version that meets every constraint, computes Terraform's "h1:"
// package hash and places the chosen package under
// .terraform/providers/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH.
//
// It never downloads anything: a network mirror or the origin registry
// ("direct") are recorded by the CLI configuration and refused here when a
// provider would need them. Nothing here reads flags or environment
// variables; the caller passes the places to search (see cliconfig) and
// the platform. It depends on addrs only.
//
// Imports:
//
//	deny internal/... net/http # it depends on addrs only, and downloads nothing
//	allow internal/addrs
package getproviders
