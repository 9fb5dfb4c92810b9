// Package genconfig writes HCL configuration for an object that exists
// but has no resource block: what plan -generate-config-out writes for an
// import block's target (Terraform 1.5). Given the resource type's schema
// and the imported object's value, it writes a resource block with every
// argument the configuration may set (required and optional attributes,
// nested blocks), in schema order, with the object's values; computed-only
// attributes are left out and sensitive ones written as null, so no secret
// reaches the file.
//
// It knows schemas and values, nothing of providers, state or plans.
//
// Imports:
//
//	deny internal/... # a schema and a value in, HCL text out
//	allow internal/configschema # the resource type's schema
package genconfig
