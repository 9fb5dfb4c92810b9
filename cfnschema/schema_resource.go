package cfnschema

import (
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// ResourceSchema builds the type's resource schema. Each call builds a new
// schema; the caller may keep or modify it.
func (t *ResourceType) ResourceSchema() schema.Schema {
	return schema.Schema{
		Description: t.Description,
		Attributes:  resourceAttributes(t.Attributes),
	}
}

func resourceAttributes(attrs []*Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(attrs))
	for _, a := range attrs {
		out[a.Name] = resourceAttribute(a)
	}
	return out
}

// resourceAttribute builds one attribute. Objects nest as attributes, and
// so do collections of objects; any other collection of collections is an
// attribute with an element type.
func resourceAttribute(a *Attribute) schema.Attribute {
	t := a.Type
	switch t.Kind {
	case KindString, KindTimestamp, KindJSON:
		return schema.StringAttribute{
			CustomType: stringCustomType(t.Kind),
			Required:   a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    stringValidators(a),
			PlanModifiers: stringModifiers(a),
		}
	case KindInt64:
		return schema.Int64Attribute{
			Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    int64Validators(a),
			PlanModifiers: int64Modifiers(a),
		}
	case KindFloat64:
		return schema.Float64Attribute{
			Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    float64Validators(a),
			PlanModifiers: float64Modifiers(a),
		}
	case KindBool:
		return schema.BoolAttribute{
			Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    boolValidators(a),
			PlanModifiers: boolModifiers(a),
		}
	case KindObject:
		return schema.SingleNestedAttribute{
			Attributes: resourceAttributes(t.Attributes),
			Required:   a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    objectValidators(a),
			PlanModifiers: objectModifiers(a),
		}
	case KindList:
		return resourceList(a)
	case KindSet:
		return resourceSet(a)
	case KindMap:
		return resourceMap(a)
	}
	panic("cfnschema: resourceAttribute on invalid kind " + t.Kind.String())
}

func resourceList(a *Attribute) schema.Attribute {
	if nestable(a.Type) {
		return schema.ListNestedAttribute{
			NestedObject: schema.NestedAttributeObject{Attributes: resourceAttributes(a.Type.Elem.Attributes)},
			Required:     a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    listValidators(a),
			PlanModifiers: listModifiers(a),
		}
	}
	return schema.ListAttribute{
		ElementType: attrTypeOf(a.Type.Elem),
		Required:    a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
		Description:   a.Description,
		Validators:    listValidators(a),
		PlanModifiers: listModifiers(a),
	}
}

func resourceSet(a *Attribute) schema.Attribute {
	if nestable(a.Type) {
		return schema.SetNestedAttribute{
			NestedObject: schema.NestedAttributeObject{Attributes: resourceAttributes(a.Type.Elem.Attributes)},
			Required:     a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    setValidators(a),
			PlanModifiers: setModifiers(a),
		}
	}
	return schema.SetAttribute{
		ElementType: attrTypeOf(a.Type.Elem),
		Required:    a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
		Description:   a.Description,
		Validators:    setValidators(a),
		PlanModifiers: setModifiers(a),
	}
}

func resourceMap(a *Attribute) schema.Attribute {
	if nestable(a.Type) {
		return schema.MapNestedAttribute{
			NestedObject: schema.NestedAttributeObject{Attributes: resourceAttributes(a.Type.Elem.Attributes)},
			Required:     a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Description:   a.Description,
			Validators:    mapValidators(a),
			PlanModifiers: mapModifiers(a),
		}
	}
	return schema.MapAttribute{
		ElementType: attrTypeOf(a.Type.Elem),
		Required:    a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
		Description:   a.Description,
		Validators:    mapValidators(a),
		PlanModifiers: mapModifiers(a),
	}
}

// stringCustomType returns the custom type of string kinds: RFC 3339
// timestamps and normalized JSON compare by meaning, not by spelling.
func stringCustomType(k Kind) basetypes.StringTypable {
	switch k {
	case KindTimestamp:
		return timetypes.RFC3339Type{}
	case KindJSON:
		return jsontypes.NormalizedType{}
	}
	return nil
}
