package tfproto6

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/wire"
)

var _ providers.ListResourceProvider = (*Provider)(nil)

// convertListSchemas converts a GetProviderSchema answer's list resource
// schemas; one that cannot be converted is left out with an error.
func convertListSchemas(in *tfprotov6.GetProviderSchemaResponse) providers.GetListResourceSchemasResponse {
	out := providers.GetListResourceSchemasResponse{ListResourceTypes: make(map[string]providers.Schema, len(in.ListResourceSchemas))}
	for name, s := range in.ListResourceSchemas {
		cs, err := convertSchema(s, true)
		if err != nil {
			out.Diagnostics = out.Diagnostics.Append(fmt.Errorf("the provider's schema for list resource %s cannot be used: %w", name, err))
			continue
		}
		out.ListResourceTypes[name] = cs
	}
	return out
}

// GetListResourceSchemas implements providers.ListResourceProvider,
// from the one GetProviderSchema answer the adapter keeps.
func (p *Provider) GetListResourceSchemas(ctx context.Context) providers.GetListResourceSchemasResponse {
	if ds := p.schemaErrors(ctx); ds.HasErrors() {
		return providers.GetListResourceSchemasResponse{Diagnostics: ds}
	}
	return p.cache.lists
}

// listServer returns the server's list resource RPCs, or an error
// diagnostic when it has none.
func (p *Provider) listServer() (tfprotov6.ListResourceServer, diags.Diagnostics) {
	ls, ok := p.server.(tfprotov6.ProviderServerWithListResource)
	if !ok {
		return nil, diags.Diagnostics{diags.Errorf("Unsupported list resource", "The provider does not list resources (plugin protocol 6.10).")}
	}
	return ls, nil
}

// listType returns the implied type of a list block, or an error
// diagnostic when the provider has no such list resource.
func (p *Provider) listType(ctx context.Context, name string) (cty.Type, diags.Diagnostics) {
	if ds := p.schemaErrors(ctx); ds.HasErrors() {
		return cty.NilType, ds
	}
	s, ok := p.cache.lists.ListResourceTypes[name]
	if !ok {
		return cty.NilType, diags.Diagnostics{diags.Errorf("Unsupported list resource", "The provider has no list resource type %q.", name)}
	}
	return s.Block.ImpliedType(), nil
}

// ValidateListResourceConfig implements providers.ListResourceProvider.
func (p *Provider) ValidateListResourceConfig(ctx context.Context, req providers.ValidateListResourceConfigRequest) (resp providers.ValidateListResourceConfigResponse) {
	const method = "ValidateListResourceConfig"
	ls, ds := p.listServer()
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	ty, ds := p.listType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ValidateListResourceConfigRequest{TypeName: req.TypeName, Config: c.encode("configuration", req.Config, ty)}
	presp, err := invoke(&c, func() (*tfprotov6.ValidateListResourceConfigResponse, error) {
		return ls.ValidateListResourceConfig(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	return resp
}

// ListResource implements providers.ListResourceProvider: the server's
// stream as the caller ranges over it, each result decoded with the
// resource type's identity and schema. A result that does not decode
// ends the listing with an error result.
func (p *Provider) ListResource(ctx context.Context, req providers.ListResourceRequest) (resp providers.ListResourceResponse) {
	const method = "ListResource"
	ls, ds := p.listServer()
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	ty, ds := p.listType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	objTy, ds := p.resourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ListResourceRequest{TypeName: req.TypeName, Config: c.encode("configuration", req.Config, ty), IncludeResource: req.IncludeResourceObject, Limit: req.Limit}
	stream, err := invoke(&c, func() (*tfprotov6.ListResourceServerStream, error) { return ls.ListResource(ctx, preq) })
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Results = func(yield func(providers.ListResult) bool) {
		if stream.Results == nil {
			return
		}
		// The provider's iterator runs apart (iter.Pull), so that a panic
		// in it is the provider's failure, reported as a last result,
		// while one in the caller's loop stays the caller's.
		next, stop := iter.Pull(stream.Results)
		defer stop()
		for {
			var r tfprotov6.ListResourceResult
			var more bool
			if err := wire.Guard(func() error { r, more = next(); return nil }); err != nil {
				yield(providers.ListResult{Diagnostics: callFailed(method, err)})
				return
			}
			if !more {
				return
			}
			var rc codec
			out := providers.ListResult{DisplayName: r.DisplayName, Diagnostics: convertDiagnostics(r.Diagnostics)}
			out.Identity = p.decodeIdentity(ctx, &rc, req.TypeName, r.Identity)
			if r.Resource != nil {
				out.ResourceObject = rc.decode("resource object", r.Resource, objTy)
			}
			if rc.Err != nil {
				yield(providers.ListResult{Diagnostics: out.Diagnostics.Append(callFailed(method, rc.Err))})
				return
			}
			if !yield(out) {
				return
			}
		}
	}
	return resp
}
