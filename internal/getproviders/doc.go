// Package getproviders finds and installs provider plugin packages the
// way Terraform 1.5.7's "init" does: from local directories (a
// filesystem mirror, -plugin-dir directories, the implied local mirror
// directories), from the provider's origin registry ("direct": service
// discovery, the provider registry protocol, a SHA256SUMS document
// signed with OpenPGP) and from network mirrors (the provider network
// mirror protocol). It lists the versions a place offers, picks the
// newest version that meets every constraint, authenticates a download,
// computes Terraform's "h1:" package hash and places the chosen package
// under .terraform/providers/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH.
//
// Nothing here reads flags or environment variables; the caller passes
// the places to search (see cliconfig), the platform and the HTTP
// client. It depends on addrs only.
//
// Imports:
//
//	deny internal/... # it depends on addrs only
//	allow internal/addrs
package getproviders
