// Package addrs holds Cairn's typed addresses: resources, resource
// instances and their keys, module instances, providers and provider
// configurations, and the references an expression can make.
//
// Addresses are values, never strings in disguise: user text is parsed once,
// at the edge, into these types (with diagnostics for bad input), and each
// type's String method produces text that parses back to an equal value.
// Every address that keys a map offers a comparable UniqueKey.
//
// This package knows nothing about values, state or configuration bodies; it
// depends only on hcl (for traversals and source ranges) and cty (for
// instance-key values).
//
// Imports:
//
//	deny ... # addresses depend only on hcl and cty: no values, state or configuration
//	allow std github.com/hashicorp/hcl/... github.com/zclconf/go-cty/...
package addrs
