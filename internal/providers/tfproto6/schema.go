package tfproto6

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/wire"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// convertProviderSchema converts a GetProviderSchema answer. A type whose
// schema cannot be converted is left out with an error naming it; the
// others are kept, and so are the provider's functions. Ephemeral
// resources, list resources, actions and state stores are not yet part of
// the engine's contract and are ignored.
func convertProviderSchema(in *tfprotov6.GetProviderSchemaResponse) providers.GetProviderSchemaResponse {
	out := providers.GetProviderSchemaResponse{
		ResourceTypes: make(map[string]providers.Schema, len(in.ResourceSchemas)),
		DataSources:   make(map[string]providers.Schema, len(in.DataSourceSchemas)),
		Diagnostics:   convertDiagnostics(in.Diagnostics),
	}
	if in.ServerCapabilities != nil {
		out.PlanDestroy = in.ServerCapabilities.PlanDestroy
		out.GetProviderSchemaOptional = in.ServerCapabilities.GetProviderSchemaOptional
		out.MoveResourceState = in.ServerCapabilities.MoveResourceState
		out.GenerateResourceConfig = in.ServerCapabilities.GenerateResourceConfig
	}
	var fds diags.Diagnostics
	out.Functions, fds = convertFunctions(in.Functions)
	out.Diagnostics = out.Diagnostics.Append(fds)
	fail := func(what string, err error) {
		out.Diagnostics = out.Diagnostics.Append(fmt.Errorf("the provider's schema for %s cannot be used: %w", what, err))
	}
	var err error
	if out.Provider, err = convertSchema(in.Provider, false); err != nil {
		fail("its configuration", err)
	}
	if out.ProviderMeta, err = convertSchema(in.ProviderMeta, false); err != nil {
		fail("provider_meta", err)
	}
	for name, s := range in.ResourceSchemas {
		cs, err := convertSchema(s, true)
		if err != nil {
			fail("resource type "+name, err)
			continue
		}
		out.ResourceTypes[name] = cs
	}
	for name, s := range in.DataSourceSchemas {
		cs, err := convertSchema(s, true)
		if err != nil {
			fail("data source "+name, err)
			continue
		}
		out.DataSources[name] = cs
	}
	return out
}

// convertSchema converts one schema. A nil schema converts to a nil block
// (no configuration at all, as the built-in providers say it), or to an
// empty block when required is set, because every resource type needs one.
func convertSchema(s *tfprotov6.Schema, required bool) (providers.Schema, error) {
	if s == nil || s.Block == nil {
		if required {
			return providers.Schema{Block: &configschema.Block{}}, nil
		}
		if s == nil {
			return providers.Schema{}, nil
		}
		return providers.Schema{Version: s.Version}, nil
	}
	b := &configschema.Block{}
	if err := fillBlock(b, s.Block); err != nil {
		return providers.Schema{}, err
	}
	return providers.Schema{Version: s.Version, Block: b}, nil
}

// fillBlock fills b (a fresh block, not yet used) from in. It fills in place
// because configschema.Block caches derived data and must not be copied.
func fillBlock(b *configschema.Block, in *tfprotov6.SchemaBlock) error {
	b.Description = in.Description
	b.Deprecated = in.Deprecated
	if len(in.Attributes) > 0 {
		b.Attributes = make(map[string]*configschema.Attribute, len(in.Attributes))
	}
	for _, a := range in.Attributes {
		if a == nil {
			continue
		}
		ca, err := convertAttribute(a)
		if err != nil {
			return fmt.Errorf("attribute %q: %w", a.Name, err)
		}
		b.Attributes[a.Name] = ca
	}
	if len(in.BlockTypes) > 0 {
		b.BlockTypes = make(map[string]*configschema.NestedBlock, len(in.BlockTypes))
	}
	for _, nb := range in.BlockTypes {
		if nb == nil {
			continue
		}
		cnb, err := convertNestedBlock(nb)
		if err != nil {
			return fmt.Errorf("block %q: %w", nb.TypeName, err)
		}
		b.BlockTypes[nb.TypeName] = cnb
	}
	return nil
}

func convertAttribute(in *tfprotov6.SchemaAttribute) (*configschema.Attribute, error) {
	a := &configschema.Attribute{
		Description: in.Description,
		Required:    in.Required,
		Optional:    in.Optional,
		Computed:    in.Computed,
		Sensitive:   in.Sensitive,
		Deprecated:  in.Deprecated,
		WriteOnly:   in.WriteOnly,
	}
	if in.NestedType != nil {
		obj, err := convertObject(in.NestedType)
		if err != nil {
			return nil, err
		}
		a.NestedType = obj
		return a, nil
	}
	t, err := wire.CtyType(in.Type)
	if err != nil {
		return nil, err
	}
	a.Type = t
	return a, nil
}

func convertObject(in *tfprotov6.SchemaObject) (*configschema.Object, error) {
	o := &configschema.Object{Attributes: make(map[string]*configschema.Attribute, len(in.Attributes))}
	switch in.Nesting {
	case tfprotov6.SchemaObjectNestingModeSingle:
		o.Nesting = configschema.NestingSingle
	case tfprotov6.SchemaObjectNestingModeList:
		o.Nesting = configschema.NestingList
	case tfprotov6.SchemaObjectNestingModeSet:
		o.Nesting = configschema.NestingSet
	case tfprotov6.SchemaObjectNestingModeMap:
		o.Nesting = configschema.NestingMap
	default:
		return nil, fmt.Errorf("invalid nesting mode %s for a nested attribute", in.Nesting)
	}
	for _, a := range in.Attributes {
		if a == nil {
			continue
		}
		ca, err := convertAttribute(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", a.Name, err)
		}
		o.Attributes[a.Name] = ca
	}
	return o, nil
}

func convertNestedBlock(in *tfprotov6.SchemaNestedBlock) (*configschema.NestedBlock, error) {
	nb := &configschema.NestedBlock{MinItems: int(in.MinItems), MaxItems: int(in.MaxItems)}
	switch in.Nesting {
	case tfprotov6.SchemaNestedBlockNestingModeSingle:
		nb.Nesting = configschema.NestingSingle
	case tfprotov6.SchemaNestedBlockNestingModeGroup:
		nb.Nesting = configschema.NestingGroup
	case tfprotov6.SchemaNestedBlockNestingModeList:
		nb.Nesting = configschema.NestingList
	case tfprotov6.SchemaNestedBlockNestingModeSet:
		nb.Nesting = configschema.NestingSet
	case tfprotov6.SchemaNestedBlockNestingModeMap:
		nb.Nesting = configschema.NestingMap
	default:
		return nil, fmt.Errorf("invalid nesting mode %s", in.Nesting)
	}
	if in.Block != nil {
		if err := fillBlock(&nb.Block, in.Block); err != nil {
			return nil, err
		}
	}
	return nb, nil
}
