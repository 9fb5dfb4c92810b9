package crds

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/fieldname"
	"github.com/zclconf/go-cty/cty"
)

// shape is one value's form as the CRD and the codec see it: a primitive,
// a collection of shapes, an object of named members, or anything
// (cty.DynamicPseudoType). It unifies the three ways a schema spells a
// structure (attribute types, nested attribute objects and nested blocks)
// so that the OpenAPI schema and the codec walk one tree and cannot
// disagree.
type shape struct {
	kind    shapeKind
	ty      cty.Type // the value's cty type (the element's for nothing)
	elem    *shape   // list, set and map
	members []*member
}

type shapeKind byte

const (
	shapePrimitive shapeKind = iota
	shapeList
	shapeSet
	shapeMap
	shapeObject
	shapeDynamic
)

// member is one attribute of an object shape.
type member struct {
	name, field string // snake_case attribute, lowerCamelCase JSON field
	shape       *shape
	description string
	required    bool
	computed    bool // and not optional: the provider alone sets it
	sensitive   bool
	// group marks a NestingGroup block: never null, absent means an
	// object of nulls.
	group bool
}

// configurable says whether configuration may set the member.
func (m *member) configurable() bool { return !m.computed }

// blockShape returns the shape of a whole value of b. The error names an
// attribute whose field name collides with another's in the same object.
func blockShape(b *configschema.Block) (*shape, error) {
	if b == nil {
		return &shape{kind: shapeObject, ty: cty.EmptyObject}, nil
	}
	ms := make([]*member, 0, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		s, err := attributeShape(a)
		if err != nil {
			return nil, within(name, err)
		}
		ms = append(ms, newMember(name, s, a.Description, a.Required, a.Computed && !a.Optional && !a.Required, a.Secret()))
	}
	for name, nb := range b.BlockTypes {
		s, err := nestedBlockShape(nb)
		if err != nil {
			return nil, within(name, err)
		}
		m := newMember(name, s, nb.Description, nb.MinItems > 0, false, false)
		m.group = nb.Nesting == configschema.NestingGroup
		ms = append(ms, m)
	}
	return objectShape(b.ImpliedType(), ms)
}

func newMember(name string, s *shape, desc string, required, computed, sensitive bool) *member {
	return &member{name: name, field: fieldname.Camel(name), shape: s, description: desc,
		required: required, computed: computed, sensitive: sensitive}
}

// objectShape sorts members by name and checks their fields are distinct.
func objectShape(ty cty.Type, ms []*member) (*shape, error) {
	sort.Slice(ms, func(i, j int) bool { return ms[i].name < ms[j].name })
	seen := make(map[string]string, len(ms))
	for _, m := range ms {
		for _, f := range []string{m.field, m.field + secretRefSuffix} {
			if other, dup := seen[f]; dup {
				return nil, &schemaError{path: []string{m.name}, msg: fmt.Sprintf("JSON field %q collides with attribute %s", f, other)}
			}
		}
		seen[m.field] = m.name
		if m.sensitive {
			seen[m.field+secretRefSuffix] = m.name
		}
	}
	return &shape{kind: shapeObject, ty: ty, members: ms}, nil
}

func attributeShape(a *configschema.Attribute) (*shape, error) {
	if a.NestedType == nil {
		return typeShape(a.Type)
	}
	ms := make([]*member, 0, len(a.NestedType.Attributes))
	for name, na := range a.NestedType.Attributes {
		s, err := attributeShape(na)
		if err != nil {
			return nil, within(name, err)
		}
		ms = append(ms, newMember(name, s, na.Description, na.Required, na.Computed && !na.Optional && !na.Required, na.Secret()))
	}
	obj, err := objectShape(objectTypeOf(ms), ms)
	if err != nil {
		return nil, err
	}
	return nested(a.NestedType.Nesting, obj), nil
}

func nestedBlockShape(nb *configschema.NestedBlock) (*shape, error) {
	obj, err := blockShape(&nb.Block)
	if err != nil {
		return nil, err
	}
	return nested(nb.Nesting, obj), nil
}

// nested wraps an object shape in its nesting mode's collection.
func nested(mode configschema.NestingMode, obj *shape) *shape {
	switch mode {
	case configschema.NestingList:
		return &shape{kind: shapeList, ty: cty.List(obj.ty), elem: obj}
	case configschema.NestingSet:
		return &shape{kind: shapeSet, ty: cty.Set(obj.ty), elem: obj}
	case configschema.NestingMap:
		return &shape{kind: shapeMap, ty: cty.Map(obj.ty), elem: obj}
	}
	return obj
}

func objectTypeOf(ms []*member) cty.Type {
	attrs := make(map[string]cty.Type, len(ms))
	for _, m := range ms {
		attrs[m.name] = m.shape.ty
	}
	return cty.Object(attrs)
}

// typeShape is the shape of a plain attribute type. Object attributes of
// a type are configurable wherever the attribute is.
func typeShape(ty cty.Type) (*shape, error) {
	ty = ty.WithoutOptionalAttributesDeep()
	switch {
	case ty == cty.DynamicPseudoType:
		return &shape{kind: shapeDynamic, ty: ty}, nil
	case ty.IsPrimitiveType():
		return &shape{kind: shapePrimitive, ty: ty}, nil
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		elem, err := typeShape(ty.ElementType())
		if err != nil {
			return nil, err
		}
		k := shapeList
		switch {
		case ty.IsSetType():
			k = shapeSet
		case ty.IsMapType():
			k = shapeMap
		}
		return &shape{kind: k, ty: ty, elem: elem}, nil
	case ty.IsObjectType():
		ms := make([]*member, 0, len(ty.AttributeTypes()))
		for name, at := range ty.AttributeTypes() {
			s, err := typeShape(at)
			if err != nil {
				return nil, within(name, err)
			}
			ms = append(ms, newMember(name, s, "", false, false, false))
		}
		return objectShape(ty, ms)
	}
	return nil, &schemaError{msg: fmt.Sprintf("type %s has no Kubernetes form", ty.FriendlyName())}
}

// schemaError says which attribute of a schema cannot be served, by its
// path of attribute names from the block.
type schemaError struct {
	path []string
	msg  string
}

func (e *schemaError) Error() string {
	if len(e.path) == 0 {
		return e.msg
	}
	return strings.Join(e.path, ".") + ": " + e.msg
}

// within prefixes err's path with the attribute holding it.
func within(name string, err error) error {
	if se, ok := err.(*schemaError); ok {
		return &schemaError{path: append([]string{name}, se.path...), msg: se.msg}
	}
	return fmt.Errorf("%s: %w", name, err)
}
