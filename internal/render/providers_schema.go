package render

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	tfjson "github.com/hashicorp/terraform-json"
)

// ProviderSchemasFormatVersion is the format_version Terraform 1.5.7 writes
// in `terraform providers schema -json`.
const ProviderSchemasFormatVersion = "1.0"

// ProviderSchemasJSON returns provider schemas as `terraform providers
// schema -json` prints them, keyed by provider source address
// ("registry.terraform.io/hashicorp/awscc", "terraform.io/builtin/terraform").
// A provider without a configuration block (a nil block, as the built-in
// terraform provider has) has no "provider" entry, as in Terraform.
//
// Descriptions are all "plain": the schema model does not record a
// description's kind.
func ProviderSchemasJSON(schemas providers.Schemas) *tfjson.ProviderSchemas {
	out := &tfjson.ProviderSchemas{FormatVersion: ProviderSchemasFormatVersion}
	if len(schemas) == 0 {
		return out
	}
	out.Schemas = make(map[string]*tfjson.ProviderSchema, len(schemas))
	for addr, s := range schemas {
		if s == nil {
			continue
		}
		out.Schemas[addr.String()] = &tfjson.ProviderSchema{
			ConfigSchema:      SchemaJSON(s.Provider),
			ResourceSchemas:   schemaMapJSON(s.ResourceTypes),
			DataSourceSchemas: schemaMapJSON(s.DataSources),
			Functions:         functionsJSON(s.Functions),
		}
	}
	return out
}

// functionsJSON is a provider's functions as Terraform 1.8+ prints them
// under "functions": parameters in order, is_nullable where a null may
// be passed, types in cty's JSON form.
func functionsJSON(fns map[string]providers.Function) map[string]*tfjson.FunctionSignature {
	if len(fns) == 0 {
		return nil
	}
	out := make(map[string]*tfjson.FunctionSignature, len(fns))
	for name, f := range fns {
		sig := &tfjson.FunctionSignature{Description: f.Description, Summary: f.Summary,
			DeprecationMessage: f.DeprecationMessage, ReturnType: f.Return}
		for _, p := range f.Parameters {
			sig.Parameters = append(sig.Parameters, functionParameterJSON(p))
		}
		if f.VariadicParameter != nil {
			sig.VariadicParameter = functionParameterJSON(*f.VariadicParameter)
		}
		out[name] = sig
	}
	return out
}

func functionParameterJSON(p providers.FunctionParameter) *tfjson.FunctionParameter {
	return &tfjson.FunctionParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNullValue, Type: p.Type}
}

// SchemaJSON returns one schema in Terraform's JSON form, or nil when it
// has no block.
func SchemaJSON(s providers.Schema) *tfjson.Schema {
	if s.Block == nil {
		return nil
	}
	return &tfjson.Schema{Version: uint64(s.Version), Block: blockJSON(s.Block)}
}

func schemaMapJSON(m map[string]providers.Schema) map[string]*tfjson.Schema {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]*tfjson.Schema, len(m))
	for name, s := range m {
		if js := SchemaJSON(s); js != nil {
			out[name] = js
		} else {
			out[name] = &tfjson.Schema{Version: uint64(s.Version), Block: &tfjson.SchemaBlock{DescriptionKind: tfjson.SchemaDescriptionKindPlain}}
		}
	}
	return out
}

func blockJSON(b *configschema.Block) *tfjson.SchemaBlock {
	out := &tfjson.SchemaBlock{
		Attributes:      attributesJSON(b.Attributes),
		Description:     b.Description,
		DescriptionKind: tfjson.SchemaDescriptionKindPlain,
		Deprecated:      b.Deprecated,
	}
	if len(b.BlockTypes) > 0 {
		out.NestedBlocks = make(map[string]*tfjson.SchemaBlockType, len(b.BlockTypes))
		for name, nb := range b.BlockTypes {
			out.NestedBlocks[name] = &tfjson.SchemaBlockType{
				NestingMode: nestingModeJSON(nb.Nesting),
				Block:       blockJSON(&nb.Block),
				MinItems:    uint64(max(nb.MinItems, 0)),
				MaxItems:    uint64(max(nb.MaxItems, 0)),
			}
		}
	}
	return out
}

func attributesJSON(attrs map[string]*configschema.Attribute) map[string]*tfjson.SchemaAttribute {
	if len(attrs) == 0 {
		return nil
	}
	out := make(map[string]*tfjson.SchemaAttribute, len(attrs))
	for name, a := range attrs {
		ja := &tfjson.SchemaAttribute{
			Description:     a.Description,
			DescriptionKind: tfjson.SchemaDescriptionKindPlain,
			Deprecated:      a.Deprecated,
			Required:        a.Required,
			Optional:        a.Optional,
			Computed:        a.Computed,
			Sensitive:       a.Sensitive,
			WriteOnly:       a.WriteOnly,
		}
		if a.NestedType != nil {
			ja.AttributeNestedType = &tfjson.SchemaNestedAttributeType{
				Attributes:  attributesJSON(a.NestedType.Attributes),
				NestingMode: nestingModeJSON(a.NestedType.Nesting),
			}
		} else {
			ja.AttributeType = a.Type
		}
		out[name] = ja
	}
	return out
}

func nestingModeJSON(m configschema.NestingMode) tfjson.SchemaNestingMode {
	return tfjson.SchemaNestingMode(m.String())
}
