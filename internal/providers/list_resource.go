package providers

import (
	"context"
	"iter"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// ListResourceProvider is implemented by a provider that can list the
// remote objects of some of its resource types (plugin protocol 6.10,
// Terraform 1.14's "terraform query"): a list block of a *.tfquery.hcl
// file names a list resource type, whose configuration is validated and
// then listed; each result names one object by its identity (the
// resource type's identity, see IdentityProvider), with a display name
// for people and, when asked, the object as the resource type's state
// would hold it, ready for an import block and generated configuration.
//
// A list resource type has the name of the resource type it lists.
type ListResourceProvider interface {
	// GetListResourceSchemas returns the list block schema of every list
	// resource type (GetProviderSchema's list_resource_schemas).
	GetListResourceSchemas(ctx context.Context) GetListResourceSchemasResponse
	ValidateListResourceConfig(ctx context.Context, req ValidateListResourceConfigRequest) ValidateListResourceConfigResponse
	// ListResource starts a listing. Its results arrive as the caller
	// ranges over them: the provider fetches no more than the caller
	// takes, and stops when the caller stops or ctx ends.
	ListResource(ctx context.Context, req ListResourceRequest) ListResourceResponse
}

// GetListResourceSchemasResponse holds list block schemas by type name.
type GetListResourceSchemasResponse struct {
	ListResourceTypes map[string]Schema
	Diagnostics       diags.Diagnostics
}

type ValidateListResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

type ValidateListResourceConfigResponse struct {
	Diagnostics diags.Diagnostics
}

// ListResourceRequest asks for the objects of TypeName that Config (a
// value of the list block schema) selects: at most Limit of them when
// Limit is positive, each with its resource object when
// IncludeResourceObject is set.
type ListResourceRequest struct {
	TypeName              string
	Config                cty.Value
	IncludeResourceObject bool
	Limit                 int64
}

// ListResourceResponse is a listing in progress. Diagnostics are those of
// starting it (an unknown type, a configuration that does not encode);
// Results is nil when it could not start. A failure while listing is a
// last result holding only error Diagnostics.
type ListResourceResponse struct {
	Results     iter.Seq[ListResult]
	Diagnostics diags.Diagnostics
}

// ListResult is one listed object: its Identity (a value of the resource
// type's identity schema), DisplayName, and ResourceObject (a value of the
// resource type's schema; cty.NilVal unless asked for), or Diagnostics
// about it.
type ListResult struct {
	Identity       cty.Value
	DisplayName    string
	ResourceObject cty.Value
	Diagnostics    diags.Diagnostics
}
