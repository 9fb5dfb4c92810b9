// Package importfile turns what a provider lists (plugin protocol 6.10's
// list resources) into the bulk file of `pulumi import --file`: one entry
// per object, with the adapter's type token, a resource name made from
// the object's display name, and the ID the adapter's Read imports by.
//
// The ID is derived from the listed identity the way the adapter imports:
// the provider's ImportResourceState takes the identity and answers with
// the object's state, whose "id" attribute is the ID Pulumi records for
// the resource and sends back to Read. No ID format of any one provider
// is known here.
//
// Imports:
//
//	deny internal/... # a Pulumi-wing helper over the provider contract alone
//	allow internal/providers internal/diags internal/pulumi/tokens
package importfile
