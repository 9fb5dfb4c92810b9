// Package testprovsrv serves provider releases on loopback for tests,
// over HTTPS with the test CA of testmodsrv, speaking the real protocols
// Terraform, OpenTofu and Cairn install providers with: service
// discovery, the provider registry protocol (versions, download
// documents, zips, SHA256SUMS with a detached OpenPGP signature by a key
// made in the test) and the provider network mirror protocol
// (index.json, VERSION.json). Releases can be made faulty on purpose: a
// tampered zip, a signature by a key the registry does not list, no
// signature at all, a path answering 503 a number of times. A namespace
// may require a bearer token (RequireToken); release files refuse any
// request that carries one.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn
//	allow internal/testmodsrv
package testprovsrv
