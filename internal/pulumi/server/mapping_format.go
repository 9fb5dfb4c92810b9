package server

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// The mapping format is the JSON of pulumi-terraform-bridge's
// MarshallableProviderInfo, which Pulumi's Terraform converter reads: the
// Terraform schema in the SDKv2 form (provider), and the Pulumi names of
// resources, data sources and, where they differ from the default,
// fields. Only what the converter reads is written.
type mappingInfo struct {
	Provider          *mappingProvider           `json:"provider"`
	Name              string                     `json:"name"`
	Version           string                     `json:"version"`
	Config            map[string]*fieldInfo      `json:"config,omitempty"`
	Resources         map[string]*resourceInfo   `json:"resources,omitempty"`
	DataSources       map[string]*dataSourceInfo `json:"dataSources,omitempty"`
	TFProviderVersion string                     `json:"tfProviderVersion,omitempty"`
}

// mappingProvider is the provider's Terraform schema.
type mappingProvider struct {
	Schema      map[string]*tfSchema            `json:"schema,omitempty"`
	Resources   map[string]map[string]*tfSchema `json:"resources,omitempty"`
	DataSources map[string]map[string]*tfSchema `json:"dataSources,omitempty"`
}

// tfSchema is one attribute or block in the SDKv2 form: a value type,
// and an element that is a schema (collections of primitives) or a
// resource (objects, blocks).
type tfSchema struct {
	Type     tfValueType `json:"type"`
	Optional bool        `json:"optional,omitempty"`
	Required bool        `json:"required,omitempty"`
	Computed bool        `json:"computed,omitempty"`
	Elem     *tfElem     `json:"element,omitempty"`
	MaxItems int         `json:"maxItems,omitempty"`
	MinItems int         `json:"minItems,omitempty"`
	// Deprecated is the deprecation message.
	Deprecated string `json:"deprecated,omitempty"`
}

type tfElem struct {
	Schema   *tfSchema            `json:"schema,omitempty"`
	Resource map[string]*tfSchema `json:"resource,omitempty"`
}

// tfValueType is the SDKv2 value type, by its number.
type tfValueType int

const (
	tfBool tfValueType = iota + 1
	tfInt
	tfFloat
	tfString
	tfList
	tfMap
	tfSet
)

type resourceInfo struct {
	Tok    string                `json:"tok"`
	Fields map[string]*fieldInfo `json:"fields,omitempty"`
}

type dataSourceInfo struct {
	Tok    string                `json:"tok"`
	Fields map[string]*fieldInfo `json:"fields,omitempty"`
}

// fieldInfo overrides the converter's defaults for one field.
type fieldInfo struct {
	Name        string                `json:"name,omitempty"`
	Elem        *fieldInfo            `json:"element,omitempty"`
	Fields      map[string]*fieldInfo `json:"fields,omitempty"`
	MaxItemsOne *bool                 `json:"maxItemsOne,omitempty"`
	Secret      *bool                 `json:"secret,omitempty"`
}

// tfBlock is a block's attributes and nested blocks in the SDKv2 form.
func tfBlock(b *configschema.Block) map[string]*tfSchema {
	out := map[string]*tfSchema{}
	if b == nil {
		return out
	}
	for name, a := range b.Attributes {
		s := &tfSchema{Optional: a.Optional, Required: a.Required, Computed: a.Computed, Deprecated: deprecation(a.Deprecated)}
		if a.NestedType != nil {
			// A single nested attribute is an object: the bridge's map of
			// a resource.
			s.Type, s.Elem = tfNesting(a.NestedType.Nesting), &tfElem{Resource: tfBlock(&configschema.Block{Attributes: a.NestedType.Attributes})}
			if a.NestedType.Nesting == configschema.NestingSingle {
				s.Type = tfMap
			}
		} else {
			s.Type, s.Elem = tfType(a.Type)
		}
		out[name] = s
	}
	for name, nb := range b.BlockTypes {
		s := &tfSchema{
			Type: tfNesting(nb.Nesting), Elem: &tfElem{Resource: tfBlock(&nb.Block)},
			Optional: nb.MinItems == 0, Required: nb.MinItems > 0,
			MinItems: nb.MinItems, MaxItems: nb.MaxItems, Deprecated: deprecation(nb.Deprecated),
		}
		if nb.Nesting == configschema.NestingSingle || nb.Nesting == configschema.NestingGroup {
			s.MaxItems = 1
		}
		out[name] = s
	}
	return out
}

// tfNesting is the SDKv2 type of a block's nesting mode: a single block
// is a list of at most one, as SDKv2 providers write it.
func tfNesting(n configschema.NestingMode) tfValueType {
	switch n {
	case configschema.NestingList:
		return tfList
	case configschema.NestingSet:
		return tfSet
	case configschema.NestingSingle, configschema.NestingGroup:
		return tfList
	}
	return tfMap
}

// tfType is the SDKv2 type (and element) of a cty type. Numbers are
// floats: the protocol does not tell integers apart. Dynamic values and
// tuples have no SDKv2 form; a map of unknown elements is the nearest.
func tfType(ty cty.Type) (tfValueType, *tfElem) {
	switch {
	case ty == cty.String:
		return tfString, nil
	case ty == cty.Number:
		return tfFloat, nil
	case ty == cty.Bool:
		return tfBool, nil
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		et, ee := tfType(ty.ElementType())
		kind := tfMap
		if ty.IsListType() {
			kind = tfList
		} else if ty.IsSetType() {
			kind = tfSet
		}
		return kind, &tfElem{Schema: &tfSchema{Type: et, Elem: ee}}
	case ty.IsObjectType():
		attrs := map[string]*configschema.Attribute{}
		for name, at := range ty.AttributeTypes() {
			attrs[name] = &configschema.Attribute{Type: at, Optional: true}
		}
		return tfMap, &tfElem{Resource: tfBlock(&configschema.Block{Attributes: attrs})}
	}
	return tfMap, nil
}

// fieldInfos are the overrides a block's fields need: the shape of
// nested blocks that MaxItems alone would mislead the converter about.
// Nil when none.
func fieldInfos(b *configschema.Block) map[string]*fieldInfo {
	if b == nil {
		return nil
	}
	var out map[string]*fieldInfo
	set := func(name string, f *fieldInfo) {
		if out == nil {
			out = map[string]*fieldInfo{}
		}
		out[name] = f
	}
	for name, nb := range b.BlockTypes {
		f := &fieldInfo{Fields: fieldInfos(&nb.Block)}
		switch {
		case nb.Nesting == configschema.NestingSingle || nb.Nesting == configschema.NestingGroup:
			f.MaxItemsOne = ptr(true)
		case nb.MaxItems == 1:
			f.MaxItemsOne = ptr(false)
		}
		if f.MaxItemsOne != nil || f.Fields != nil {
			set(name, f)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func deprecation(d bool) string {
	if d {
		return "Deprecated by the provider."
	}
	return ""
}
