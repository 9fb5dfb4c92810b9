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
// Imports:
//
//	deny linked internal/command internal/reconciler internal/backends/... github.com/pulumi/... k8s.io/... github.com/jackc/... # the Terraform plugin links only the provider it serves
package tfplugins
