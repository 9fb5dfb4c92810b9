// Package tfplugins serves Cairn's awscc provider to Terraform and
// OpenTofu as a plugin process (plugin protocol 6), over the
// CloudFormation schemas of a run. "cairn provider serve awscc" and the
// terraform-provider-awscc binary share it.
//
// It imports the provider, the schema sources and terraform-plugin-go,
// and nothing of the command line (internal/command): the binary links
// only what it serves, not the engine's Kubernetes, PostgreSQL or Pulumi
// packages, so Terraform's first call is answered sooner and nothing
// else runs at start-up.
//
// Terraform 1.5 launches the plugin several times per command and asks
// every launch for the whole provider schema (GetProviderSchema). A
// launch therefore builds nothing it built before: the first launch over
// a schema set keeps the encoded answer and the index of types in the
// plugin cache (internal/plugincache, keyed by the set's digest, the
// served types and the build); later launches replay the answer's bytes
// at the gRPC boundary (schemaReplay, with go-plugin served here rather
// than through tf6server.Serve, which takes no gRPC options) and serve a
// provider that translates a type only when an operation first uses it
// (awscc.NewDeferred). Debug mode (-debug) serves through tf6server and
// replays nothing.
//
// Imports:
//
//	deny linked internal/command internal/reconciler internal/backends/... github.com/pulumi/... k8s.io/... github.com/jackc/... # the Terraform plugin links only the provider it serves
package tfplugins
