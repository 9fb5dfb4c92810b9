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
// directory given to New; nothing is generated or downloaded. A plugin
// process that knows the set's names already (NewDeferred, from the
// plugin cache's index) translates a type only when an operation first
// uses it: the framework asks every resource's name before any
// operation, which deferredResource answers from the name alone.
//
// Every resource has HashiCorp's awscc resource identity (its primary
// identifier, account_id and region; identity.go), and every type whose
// schema has a list handler is a list resource (listresource.go) that
// reads ListResources pages, 100 objects with their properties a call.
//
// The runtime calls the AWS Cloud Control API (aws-sdk-go-v2): Create,
// Read, Update (RFC 6902 patches), Delete, Import, and data source reads
// (GetResource; ListResources for plural ones). Values cross between the
// framework and CloudFormation JSON level by level with cfnschema's
// attributes (translate_to.go, translate_from.go), never through a flat
// name table. Requests are polled with capped, jittered backoff; the SDK's
// retryer retries throttling on every call, in its adaptive mode, which
// lowers the client's send rate after a ThrottlingException and raises it
// again as calls succeed; a provider-wide stop context (StopProvider)
// cancels requests in flight.
//
// Refresh reads go through a list cache owned by the configured runtime
// (listcache.go): once a type's reads justify it, ListResources pages
// (100 objects with their properties) answer them, within a budget of
// 5/4 of a call per read, with GetResource as the fallback for anything a
// page cannot answer and as the only judge of an object being gone. An
// entry answers one read (reading an object again starts a new pass);
// pages expire after Provider.WithListCacheTTL (DefaultListCacheTTL);
// create, update and delete replace or drop the entries they change. Every front
// end that runs this runtime (the engine, the served Terraform plugin, the
// Pulumi plugin, the controller) refreshes the same way. A create that fails after the
// resource was named returns its id with the error, so the engine keeps
// it tainted. Taggable types get the provider's default_tags through a
// computed tags_all, as the AWS provider does.
//
// Boundary: the package knows cfnschema, the framework, the provider
// contract and the AWS SDK, and of cloudcontrol the JSON pointer grammar
// (patch paths) and the scalar-to-text coercion the endpoint and
// cfnschema share; it knows nothing of configuration files or
// flags (the command layer decides where the schemas are). The only
// environment it reads is through the SDK's own configuration loading
// (AWS_REGION, AWS_ENDPOINT_URL_CLOUDCONTROL, shared files, ...) and the
// proxy variables (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) that the provider
// block's proxy arguments override one by one.
//
// Imports:
//
//	deny internal/cfnregistry internal/cfnsources internal/command # where schemas come from is the caller's
package awscc
