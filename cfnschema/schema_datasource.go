package cfnschema

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// DataSourceSchema builds the singular data source schema, as awscc builds
// it: every attribute of the resource, Computed only (no validators, plan
// modifiers or defaults), and a Required id naming the resource to read.
func (t *ResourceType) DataSourceSchema() schema.Schema {
	attrs := make(map[string]schema.Attribute, len(t.Attributes))
	for _, a := range t.Attributes {
		attrs[a.Name] = dataSourceAttribute(a)
	}
	attrs["id"] = schema.StringAttribute{Required: true, Description: idDescription}
	return schema.Schema{
		Description: "Data Source schema for " + t.TypeName,
		Attributes:  attrs,
	}
}

// PluralDataSourceSchema builds the plural data source schema: a computed
// id (the region) and the set of identifiers of every resource of the type.
// ok is false when the type has no plural data source (see
// PluralUnavailable).
func (t *ResourceType) PluralDataSourceSchema() (s schema.Schema, ok bool) {
	if t.PluralName == "" {
		return schema.Schema{}, false
	}
	return schema.Schema{
		Description: "Plural Data Source schema for " + t.TypeName,
		Attributes: map[string]schema.Attribute{
			"id":  schema.StringAttribute{Computed: true, Description: "Uniquely identifies the data source."},
			"ids": schema.SetAttribute{ElementType: types.StringType, Computed: true, Description: "Set of Resource Identifiers."},
		},
	}, true
}

func dataSourceAttributes(attrs []*Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(attrs))
	for _, a := range attrs {
		out[a.Name] = dataSourceAttribute(a)
	}
	return out
}

func dataSourceAttribute(a *Attribute) schema.Attribute {
	t := a.Type
	switch t.Kind {
	case KindString, KindTimestamp, KindJSON:
		return schema.StringAttribute{CustomType: stringCustomType(t.Kind), Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	case KindInt64:
		return schema.Int64Attribute{Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	case KindFloat64:
		return schema.Float64Attribute{Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	case KindBool:
		return schema.BoolAttribute{Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	case KindObject:
		return schema.SingleNestedAttribute{Attributes: dataSourceAttributes(t.Attributes), Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	case KindList:
		if nestable(t) {
			return schema.ListNestedAttribute{NestedObject: schema.NestedAttributeObject{Attributes: dataSourceAttributes(t.Elem.Attributes)},
				Computed: true, Sensitive: a.Sensitive, Description: a.Description}
		}
		return schema.ListAttribute{ElementType: attrTypeOf(t.Elem), Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	case KindSet:
		if nestable(t) {
			return schema.SetNestedAttribute{NestedObject: schema.NestedAttributeObject{Attributes: dataSourceAttributes(t.Elem.Attributes)},
				Computed: true, Sensitive: a.Sensitive, Description: a.Description}
		}
		return schema.SetAttribute{ElementType: attrTypeOf(t.Elem), Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	case KindMap:
		if nestable(t) {
			return schema.MapNestedAttribute{NestedObject: schema.NestedAttributeObject{Attributes: dataSourceAttributes(t.Elem.Attributes)},
				Computed: true, Sensitive: a.Sensitive, Description: a.Description}
		}
		return schema.MapAttribute{ElementType: attrTypeOf(t.Elem), Computed: true, Sensitive: a.Sensitive, Description: a.Description}
	}
	panic("cfnschema: dataSourceAttribute on invalid kind " + t.Kind.String())
}
