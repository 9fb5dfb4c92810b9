// Package awscc is Cairn's built-in AWS Cloud Control provider
// (registry.terraform.io/hashicorp/awscc): every CloudFormation resource
// type in a directory of registry schemas becomes a resource, a singular
// data source and, where the type can be listed, a plural data source,
// with the names, types, validators and plan modifiers cfnschema builds —
// so configurations written for HashiCorp's awscc provider validate and
// plan unchanged.
//
// The provider is written on terraform-plugin-framework and runs in the
// engine through tfproto6, the same way it could be served to Terraform or
// OpenTofu over protocol 6. Types are built at run time from the schema
// directory given to New; nothing is generated or downloaded.
//
// Today the schema is served: validation and planning work. Create, Read,
// Update and Delete through the Cloud Control API, and data source reads,
// answer with a "Not implemented yet" error until the runtime arrives.
//
// Boundary: the package knows cfnschema, the framework and the provider
// contract; it knows nothing of configuration files, flags or the
// environment (the command layer decides where the schemas are).
package awscc
