// Package backendtest holds what the tests of the state backends (pg,
// s3, applyjournal) build their states from: terraform_data instances
// numbered from 0, the provider that owns them, and a way to record many
// of them at once, so that each backend is tested on the same states.
//
// Boundary: test support, imported by tests only.
//
// Imports:
//
//	tests only
package backendtest
