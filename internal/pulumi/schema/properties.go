package schema

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/jinzhu/inflection"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/fieldname"
)

// view says which attributes of a block a property list shows.
type view int

const (
	// inputs are what a program may set: required and optional
	// attributes, and nested blocks; required are the required ones.
	inputs view = iota
	// outputs are every attribute and block; required are the required
	// ones, which every object has.
	outputs
)

// builder collects the named object types while resources and functions
// are built.
type builder struct {
	pkg   string
	types map[string]Object
	// owners records which schema path made each type token, so that two
	// paths that would name one type are caught instead of merged.
	owners map[string]string
}

// typeScope is where a nested object's type is named from: the module of
// its resource or function and the Pascal-case name so far.
type typeScope struct {
	module, prefix string
}

func (s typeScope) child(attr string, singular bool) typeScope {
	name := fieldname.Camel(attr)
	if singular {
		name = inflection.Singular(name)
	}
	return typeScope{module: s.module, prefix: s.prefix + upperFirst(name)}
}

func (s typeScope) token(pkg string) string {
	return pkg + ":" + s.module + "/" + s.prefix + ":" + s.prefix
}

func (b *builder) properties(s typeScope, block *configschema.Block, v view) (map[string]Property, []string, error) {
	props := map[string]Property{}
	var req []string
	for _, name := range slices.Sorted(maps.Keys(block.Attributes)) {
		a := block.Attributes[name]
		if v == inputs && a.Computed && !a.Optional && !a.Required {
			continue
		}
		key := fieldname.Camel(name)
		p, err := b.attribute(s, name, a)
		if err != nil {
			return nil, nil, err
		}
		props[key] = p
		if a.Required {
			req = append(req, key)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(block.BlockTypes)) {
		nb := block.BlockTypes[name]
		key := fieldname.Camel(name)
		single := nb.Nesting == configschema.NestingSingle || nb.Nesting == configschema.NestingGroup
		ref, err := b.object(s.child(name, !single), &nb.Block, name)
		if err != nil {
			return nil, nil, err
		}
		props[key] = Property{Type: nest(ref, nb.Nesting), Description: nb.Description, DeprecationMessage: deprecation(nb.Deprecated)}
		if nb.MinItems > 0 {
			req = append(req, key)
		}
	}
	sort.Strings(req)
	return props, req, nil
}

func (b *builder) attribute(s typeScope, name string, a *configschema.Attribute) (Property, error) {
	p := Property{Description: a.Description, Secret: a.Secret(), DeprecationMessage: deprecation(a.Deprecated)}
	if a.NestedType != nil {
		single := a.NestedType.Nesting == configschema.NestingSingle
		ref, err := b.object(s.child(name, !single), &configschema.Block{Attributes: a.NestedType.Attributes}, name)
		if err != nil {
			return Property{}, err
		}
		p.Type = nest(ref, a.NestedType.Nesting)
		return p, nil
	}
	t, err := b.typeOf(s.child(name, false), a.Type)
	if err != nil {
		return Property{}, fmt.Errorf("attribute %s: %w", name, err)
	}
	p.Type = t
	return p, nil
}

// object names a nested block or nested attribute's object type and
// returns a reference to it. A type is built once however many views
// reach it; when two attributes would give one name (tag and tags), the
// later one in name order gets a numbered name instead of sharing.
func (b *builder) object(s typeScope, block *configschema.Block, attr string) (Type, error) {
	owner := s.prefix + "." + attr
	base := s.prefix
	for n := 2; ; n++ {
		tok := s.token(b.pkg)
		switch b.owners[tok] {
		case owner:
			return Type{Ref: "#/types/" + tok}, nil
		case "":
			b.owners[tok] = owner
			props, req, err := b.properties(s, block, outputs)
			if err != nil {
				return Type{}, err
			}
			b.types[tok] = Object{Description: block.Description, Type: "object", Properties: props, Required: req}
			return Type{Ref: "#/types/" + tok}, nil
		}
		s.prefix = fmt.Sprintf("%s%d", base, n)
	}
}

// nest wraps an object reference as its nesting mode repeats it.
func nest(ref Type, mode configschema.NestingMode) Type {
	switch mode {
	case configschema.NestingList, configschema.NestingSet:
		return Type{Type: "array", Items: &ref}
	case configschema.NestingMap:
		return Type{Type: "object", AdditionalProperties: &ref}
	}
	return ref
}

// typeOf is the Pulumi type of an attribute's cty type. Object types
// without a nested schema become named types with every property
// optional; tuples and dynamic values are Any.
func (b *builder) typeOf(s typeScope, ty cty.Type) (Type, error) {
	switch {
	case ty == cty.String:
		return Type{Type: "string"}, nil
	case ty == cty.Number:
		return Type{Type: "number"}, nil
	case ty == cty.Bool:
		return Type{Type: "boolean"}, nil
	case ty == cty.DynamicPseudoType, ty.IsTupleType():
		return Type{Ref: "pulumi.json#/Any"}, nil
	case ty.IsListType() || ty.IsSetType():
		et, err := b.typeOf(typeScope{s.module, inflection.Singular(s.prefix)}, ty.ElementType())
		if err != nil {
			return Type{}, err
		}
		return Type{Type: "array", Items: &et}, nil
	case ty.IsMapType():
		et, err := b.typeOf(typeScope{s.module, inflection.Singular(s.prefix)}, ty.ElementType())
		if err != nil {
			return Type{}, err
		}
		return Type{Type: "object", AdditionalProperties: &et}, nil
	case ty.IsObjectType():
		attrs := map[string]*configschema.Attribute{}
		for name, at := range ty.AttributeTypes() {
			attrs[name] = &configschema.Attribute{Type: at, Optional: true}
		}
		return b.object(s, &configschema.Block{Attributes: attrs}, s.prefix)
	}
	return Type{}, fmt.Errorf("type %s has no Pulumi equivalent", ty.FriendlyName())
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
