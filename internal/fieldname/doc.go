// Package fieldname maps Terraform attribute names (snake_case) to the
// camelCase field names that Kubernetes custom resources and Pulumi
// properties use, and back: log_group_name is logGroupName.
//
// It is a leaf: it imports only the standard library, so the Pulumi
// adapter and the Kubernetes codec share one mapping without either
// linking the other (the CRD package brings the Kubernetes API types).
//
// Imports:
//
//	deny ... # a leaf: the standard library only
//	allow std
package fieldname
