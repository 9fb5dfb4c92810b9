package cfnschema

import (
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// attrTypeOf returns the framework value type of t: the type of the
// attribute's values, and the element type used where Terraform cannot nest
// attributes (a collection of collections).
func attrTypeOf(t *Type) attr.Type {
	switch t.Kind {
	case KindString:
		return types.StringType
	case KindTimestamp:
		return timetypes.RFC3339Type{}
	case KindJSON:
		return jsontypes.NormalizedType{}
	case KindInt64:
		return types.Int64Type
	case KindFloat64:
		return types.Float64Type
	case KindBool:
		return types.BoolType
	case KindObject:
		return types.ObjectType{AttrTypes: objectAttrTypes(t.Attributes)}
	case KindList:
		return types.ListType{ElemType: attrTypeOf(t.Elem)}
	case KindSet:
		return types.SetType{ElemType: attrTypeOf(t.Elem)}
	case KindMap:
		return types.MapType{ElemType: attrTypeOf(t.Elem)}
	}
	panic("cfnschema: attrTypeOf on invalid kind " + t.Kind.String())
}

func objectAttrTypes(attrs []*Attribute) map[string]attr.Type {
	m := make(map[string]attr.Type, len(attrs))
	for _, a := range attrs {
		m[a.Name] = attrTypeOf(a.Type)
	}
	return m
}

// nestable reports whether a collection's elements can be nested
// attributes: only objects can, and only when the collection is itself not
// inside an element type.
func nestable(t *Type) bool {
	return t.Elem != nil && t.Elem.Kind == KindObject
}

// AttrType returns the framework value type of values of t. The runtime
// uses it to build values (and their tftypes types) level by level while
// translating Cloud Control JSON; it panics on KindInvalid, which no
// loaded type holds.
func (t *Type) AttrType() attr.Type { return attrTypeOf(t) }
