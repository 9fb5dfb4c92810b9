package tfproto6

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/wire"
)

var _ providers.IdentityProvider = (*Provider)(nil)

// identityCache holds a provider's converted identity schemas, asked for
// once per SchemaCache: only when an operation first sends or receives
// an identity, so a provider's identities cost nothing to an engine that
// never meets one.
type identityCache struct {
	once sync.Once
	resp providers.GetResourceIdentitySchemasResponse
}

// GetResourceIdentitySchemas implements providers.IdentityProvider. A
// server that has no identities answers with none.
func (p *Provider) GetResourceIdentitySchemas(ctx context.Context) providers.GetResourceIdentitySchemasResponse {
	return *p.identities(ctx)
}

func (p *Provider) identities(ctx context.Context) *providers.GetResourceIdentitySchemasResponse {
	c := &p.cache.identity
	c.once.Do(func() {
		var resp *tfprotov6.GetResourceIdentitySchemasResponse
		err := wire.Guard(func() error {
			var err error
			resp, err = p.server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
			return err
		})
		switch {
		case err != nil:
			c.resp.Diagnostics = callFailed("GetResourceIdentitySchemas", err)
		case resp == nil:
			c.resp.Diagnostics = callFailed("GetResourceIdentitySchemas", fmt.Errorf("no response"))
		default:
			c.resp = convertIdentitySchemas(resp)
		}
	})
	return &c.resp
}

// convertIdentitySchemas converts the answer; a type whose identity
// cannot be converted is left out with an error naming it.
func convertIdentitySchemas(in *tfprotov6.GetResourceIdentitySchemasResponse) providers.GetResourceIdentitySchemasResponse {
	out := providers.GetResourceIdentitySchemasResponse{
		IdentityTypes: make(map[string]providers.IdentitySchema, len(in.IdentitySchemas)),
		Diagnostics:   convertDiagnostics(in.Diagnostics),
	}
	for name, s := range in.IdentitySchemas {
		if s == nil {
			continue
		}
		cs := providers.IdentitySchema{Version: s.Version}
		var err error
		for _, a := range s.IdentityAttributes {
			if a == nil {
				continue
			}
			ia := providers.IdentityAttribute{Name: a.Name, Description: a.Description, RequiredForImport: a.RequiredForImport, OptionalForImport: a.OptionalForImport}
			if ia.Type, err = wire.CtyType(a.Type); err != nil {
				err = fmt.Errorf("attribute %q: %w", a.Name, err)
				break
			}
			cs.Attributes = append(cs.Attributes, ia)
		}
		if err != nil {
			out.Diagnostics = out.Diagnostics.Append(fmt.Errorf("the provider's identity schema for resource type %s cannot be used: %w", name, err))
			continue
		}
		sort.Slice(cs.Attributes, func(i, j int) bool { return cs.Attributes[i].Name < cs.Attributes[j].Name })
		out.IdentityTypes[name] = cs
	}
	return out
}

// identityType returns the implied type of a resource type's identity;
// false when it has none (or the schemas failed to load).
func (p *Provider) identityType(ctx context.Context, typeName string) (cty.Type, bool) {
	s, ok := p.identities(ctx).IdentityTypes[typeName]
	if !ok {
		return cty.NilType, false
	}
	return s.ImpliedType(), true
}

// encodeIdentity encodes an identity for a request; nil (no identity
// sent) when v is cty.NilVal or null, or the type has no identity.
func (p *Provider) encodeIdentity(ctx context.Context, c *codec, typeName string, v cty.Value) *tfprotov6.ResourceIdentityData {
	if v == cty.NilVal || v.IsNull() {
		return nil
	}
	ty, ok := p.identityType(ctx, typeName)
	if !ok {
		return nil
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: c.encode("identity", v, ty)}
}

// decodeIdentity decodes an answer's identity: cty.NilVal when it holds
// none. An identity for a type whose schema has none is a provider bug,
// reported as a decoding failure.
func (p *Provider) decodeIdentity(ctx context.Context, c *codec, typeName string, d *tfprotov6.ResourceIdentityData) cty.Value {
	if d == nil || d.IdentityData == nil {
		return cty.NilVal
	}
	ty, ok := p.identityType(ctx, typeName)
	if !ok {
		if c.Err == nil {
			c.Err = fmt.Errorf("the provider returned an identity for %s, which has no identity schema", typeName)
		}
		return cty.NilVal
	}
	return c.decode("identity", d.IdentityData, ty)
}

// UpgradeResourceIdentity implements providers.IdentityProvider.
func (p *Provider) UpgradeResourceIdentity(ctx context.Context, req providers.UpgradeResourceIdentityRequest) (resp providers.UpgradeResourceIdentityResponse) {
	const method = "UpgradeResourceIdentity"
	ty, ok := p.identityType(ctx, req.TypeName)
	if !ok {
		if resp.Diagnostics = p.identities(ctx).Diagnostics; !resp.Diagnostics.HasErrors() {
			resp.Diagnostics = diags.Diagnostics{diags.Errorf("Unsupported resource identity", "The provider has no identity for resource type %q.", req.TypeName)}
		}
		return resp
	}
	var c codec
	preq := &tfprotov6.UpgradeResourceIdentityRequest{TypeName: req.TypeName, Version: req.Version, RawIdentity: &tfprotov6.RawState{JSON: req.RawJSON}}
	presp, err := invoke(&c, func() (*tfprotov6.UpgradeResourceIdentityResponse, error) {
		return p.server.UpgradeResourceIdentity(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	if presp.UpgradedIdentity != nil {
		resp.UpgradedIdentity = c.decode("upgraded identity", presp.UpgradedIdentity.IdentityData, ty)
	}
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}
