// Package reconciler reconciles Cairn resource types as Crossplane
// managed resources: one controller per kind, driven by
// crossplane-runtime's managed reconciler, whose external client runs
// the engine's per-instance lifecycle (internal/lifecycle) against the
// provider in process. No CLI is forked and no file is written: each
// managed resource is a workspace in memory, its desired configuration
// read from spec and its state rebuilt from the object.
package reconciler
