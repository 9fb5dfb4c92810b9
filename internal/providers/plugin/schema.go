package plugin

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// schemaResponse reads a GetProviderSchema answer (protocol 5's GetSchema
// answers with the same message) into tfprotov6's form, which tfproto6
// converts for the engine. What the engine does not use yet is not
// read. The error names the type whose
// schema is malformed: a provider bug, reported as a failed call.
func schemaResponse(x message) (*tfprotov6.GetProviderSchemaResponse, error) {
	out := &tfprotov6.GetProviderSchemaResponse{
		Diagnostics:       diagnostics(x, "diagnostics"),
		ResourceSchemas:   map[string]*tfprotov6.Schema{},
		DataSourceSchemas: map[string]*tfprotov6.Schema{},
	}
	var err error
	if out.Provider, err = schema(x.msg("provider")); err != nil {
		return nil, fmt.Errorf("provider configuration schema: %w", err)
	}
	if out.ProviderMeta, err = schema(x.msg("provider_meta")); err != nil {
		return nil, fmt.Errorf("provider_meta schema: %w", err)
	}
	if err := schemaMap(x, "resource_schemas", "resource type", out.ResourceSchemas); err != nil {
		return nil, err
	}
	if err := schemaMap(x, "data_source_schemas", "data source", out.DataSourceSchemas); err != nil {
		return nil, err
	}
	if err := listSchemas(x, out); err != nil {
		return nil, err
	}
	if err := ephemeralSchemas(x, out); err != nil {
		return nil, err
	}
	out.ServerCapabilities = serverCapabilities(x.msg("server_capabilities"))
	if out.Functions, err = functions(x, "functions"); err != nil {
		return nil, err
	}
	return out, nil
}

// schemaMap reads one map<string, Schema> field into into.
func schemaMap(x message, field, kind string, into map[string]*tfprotov6.Schema) error {
	for name, m := range x.msgMap(field) {
		s, err := schema(m)
		if err != nil {
			return fmt.Errorf("schema of %s %s: %w", kind, name, err)
		}
		into[name] = s
	}
	return nil
}

// schema reads a Schema message; nil when absent.
func schema(x message) (*tfprotov6.Schema, error) {
	if !x.valid() {
		return nil, nil
	}
	out := &tfprotov6.Schema{Version: x.int("version")}
	if b := x.msg("block"); b.valid() {
		var err error
		if out.Block, err = block(b); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func block(x message) (*tfprotov6.SchemaBlock, error) {
	out := &tfprotov6.SchemaBlock{
		Version:     x.int("version"),
		Description: x.str("description"),
		Deprecated:  x.boolean("deprecated"),
	}
	for _, a := range x.list("attributes") {
		attr, err := attribute(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", a.str("name"), err)
		}
		out.Attributes = append(out.Attributes, attr)
	}
	for _, nb := range x.list("block_types") {
		inner, err := block(nb.msg("block"))
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.str("type_name"), err)
		}
		out.BlockTypes = append(out.BlockTypes, &tfprotov6.SchemaNestedBlock{
			TypeName: nb.str("type_name"),
			Block:    inner,
			Nesting:  tfprotov6.SchemaNestedBlockNestingMode(nb.enum("nesting")),
			MinItems: nb.int("min_items"),
			MaxItems: nb.int("max_items"),
		})
	}
	return out, nil
}

// attribute reads one attribute. Its type travels as cty's JSON type
// form; a protocol 6 attribute may instead have a nested_type (protocol 5
// has no such field, so there it always reads as absent).
func attribute(x message) (*tfprotov6.SchemaAttribute, error) {
	out := &tfprotov6.SchemaAttribute{
		Name:        x.str("name"),
		Description: x.str("description"),
		Required:    x.boolean("required"),
		Optional:    x.boolean("optional"),
		Computed:    x.boolean("computed"),
		Sensitive:   x.boolean("sensitive"),
		Deprecated:  x.boolean("deprecated"),
		WriteOnly:   x.boolean("write_only"),
	}
	if nt := x.msg("nested_type"); nt.valid() {
		obj, err := object(nt)
		out.NestedType = obj
		return out, err
	}
	t, err := tftypes.ParseJSONType(x.bytes("type")) //nolint:staticcheck // the wire form is JSON
	if err != nil {
		return nil, fmt.Errorf("type %q: %w", x.bytes("type"), err)
	}
	out.Type = t
	return out, nil
}

func object(x message) (*tfprotov6.SchemaObject, error) {
	out := &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingMode(x.enum("nesting"))}
	for _, a := range x.list("attributes") {
		attr, err := attribute(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", a.str("name"), err)
		}
		out.Attributes = append(out.Attributes, attr)
	}
	return out, nil
}
