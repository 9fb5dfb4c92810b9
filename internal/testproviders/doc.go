// Package testproviders finds the real provider plugins
// scripts/build-test-providers.sh builds (hashicorp time, random and
// local) for tests in several packages: one place that knows the cache
// layout and the versions.
//
// Boundary: test support, imported by tests only; it knows nothing of
// Cairn. It reads the environment make test sets: that is how a test
// learns where the plugins and tools were built.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn
//	uses environment # where make test built the plugins and tools (CAIRN_TEST_PROVIDERS, CAIRN_TOFU, CAIRN_PULUMI_DIR, the build cache)
package testproviders
