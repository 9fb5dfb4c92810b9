package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// ProviderMetas holds what each module sends each provider as
// provider_meta, decoded once per run and read by every instance.
type ProviderMetas struct {
	schemas providers.Schemas
	values  map[metaKey]cty.Value
}

type metaKey struct {
	module   string
	provider addrs.Provider
}

// DecodeProviderMetas decodes the provider_meta blocks of module mod (at
// path) against each provider's provider_meta schema. As in Terraform, the
// body may not refer to anything: it is decoded without an evaluation
// context. A provider without a provider_meta schema cannot take one.
func DecodeProviderMetas(path addrs.Module, mod *configs.Module, schemas providers.Schemas) (*ProviderMetas, diags.Diagnostics) {
	out := &ProviderMetas{schemas: schemas, values: map[metaKey]cty.Value{}}
	var ds diags.Diagnostics
	for _, pm := range mod.ProviderMetas {
		ps := schemas[pm.Provider]
		if ps == nil {
			continue // a provider the configuration does not use
		}
		schema := ps.ProviderMeta.Block
		if schema == nil {
			ds = ds.Append(diags.At(pm.NameRange, "Invalid provider_meta block",
				fmt.Sprintf("The provider %s does not accept provider_meta: it declares no provider_meta schema. Remove the block.", pm.Provider.ForDisplay())))
			continue
		}
		val, hd := hcldec.Decode(pm.Config, schema.DecoderSpec(), nil)
		ds = ds.Append(hd)
		if hd.HasErrors() {
			continue
		}
		out.values[metaKey{module: path.String(), provider: pm.Provider}] = val
	}
	return out, ds
}

// For returns what module m sends provider p: its decoded block, a null of
// the provider's provider_meta type, or cty.NilVal for a provider without
// one.
func (pm *ProviderMetas) For(m addrs.Module, p addrs.Provider) cty.Value {
	if v, ok := pm.values[metaKey{module: m.String(), provider: p}]; ok {
		return v
	}
	if ps := pm.schemas[p]; ps != nil && ps.ProviderMeta.Block != nil {
		return cty.NullVal(ps.ProviderMeta.Block.ImpliedType())
	}
	return cty.NilVal
}
