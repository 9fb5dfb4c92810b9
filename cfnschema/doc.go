// Package cfnschema reads CloudFormation registry resource type schemas and
// turns each one into Terraform resource and data source schemas at run time.
//
// A schema directory (the public AWS registry, or a private registry's types)
// is loaded with LoadDir. Every type becomes a ResourceType that carries:
//
//   - a resource schema, a singular data source schema and, when the type can
//     be listed, a plural data source schema, all built on
//     terraform-plugin-framework schema types so the same types serve the
//     engine in-process and Terraform or OpenTofu over protocol 6;
//   - a translation record per attribute (CloudFormation pointer, Terraform
//     path, and the reasons behind every decision), which the runtime uses to
//     move values between Cloud Control JSON and Terraform values and which
//     Explain renders for people.
//
// The translation follows the rules of HashiCorp's awscc provider so that
// existing awscc configurations keep working (type names, attribute names,
// types, validators, plan modifiers), and departs from it only where awscc
// loses types or information; docs/cfnschema.md lists every departure.
//
// Boundary: this package is public and stands on its own. It knows nothing of
// the engine, of Cloud Control calls or of configuration files, and imports
// nothing under internal/. Its one Cairn import is package cloudcontrol, for
// the RFC 6901 pointer parser the endpoint and emulator share. It keeps no package-level mutable state; a Catalog
// is immutable once loaded and safe for concurrent use.
//
// Imports:
//
//	deny internal/... cmd/... # cfnschema is public: outside authors import it without the engine
//	deny cloudcontrol/... # of the endpoint's packages, only the contract's pointer parser
//	allow cloudcontrol
package cfnschema
