package cfnschema

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// node is one JSON Schema object of a resource schema, as written: nothing in
// it is resolved. Numeric keywords are kept as json.Number so that an integer
// bound written as 1.0, or a bound beyond int64, still decodes and can be
// judged where its meaning is known.
type node struct {
	Ref               string            `json:"$ref"`
	Type              typeNames         `json:"type"`
	Description       string            `json:"description"`
	Properties        map[string]*node  `json:"properties"`
	PatternProperties map[string]*node  `json:"patternProperties"`
	Required          []string          `json:"required"`
	Items             *node             `json:"items"`
	Enum              []json.RawMessage `json:"enum"`
	Pattern           *string           `json:"pattern"`
	Format            string            `json:"format"`
	MinLength         *json.Number      `json:"minLength"`
	MaxLength         *json.Number      `json:"maxLength"`
	Minimum           *json.Number      `json:"minimum"`
	Maximum           *json.Number      `json:"maximum"`
	MinItems          *json.Number      `json:"minItems"`
	MaxItems          *json.Number      `json:"maxItems"`
	MinProperties     *json.Number      `json:"minProperties"`
	MaxProperties     *json.Number      `json:"maxProperties"`
	UniqueItems       *bool             `json:"uniqueItems"`
	InsertionOrder    *bool             `json:"insertionOrder"`
	Default           json.RawMessage   `json:"default"`
	OneOf             []*node           `json:"oneOf"`
	AnyOf             []*node           `json:"anyOf"`
	AllOf             []*node           `json:"allOf"`
}

// typeNames holds the "type" keyword: absent, one name, or an array of names.
type typeNames []string

// UnmarshalJSON accepts a string or an array of strings.
func (t *typeNames) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var names []string
		if err := json.Unmarshal(b, &names); err != nil {
			return fmt.Errorf("type must be a string or an array of strings: %w", err)
		}
		*t = names
		return nil
	}
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return fmt.Errorf("type must be a string or an array of strings: %w", err)
	}
	*t = typeNames{name}
	return nil
}

// hasDefault reports whether the node carries a non-null default. A null
// default means "no default", as it does for awscc.
func (n *node) hasDefault() bool {
	return len(n.Default) > 0 && !bytes.Equal(bytes.TrimSpace(n.Default), []byte("null"))
}

// document is the top level of a resource schema. Keywords that never shape
// the Terraform schema (propertyTransform, replacementStrategy,
// resource-level oneOf/anyOf/allOf, ...) are not decoded at all; of
// tagging only what the runtime needs for default tags.
type document struct {
	TypeName             string             `json:"typeName"`
	Description          string             `json:"description"`
	Properties           map[string]*node   `json:"properties"`
	Definitions          map[string]*node   `json:"definitions"`
	Required             []string           `json:"required"`
	ReadOnlyProperties   []string           `json:"readOnlyProperties"`
	CreateOnlyProperties []string           `json:"createOnlyProperties"`
	WriteOnlyProperties  []string           `json:"writeOnlyProperties"`
	PrimaryIdentifier    []string           `json:"primaryIdentifier"`
	Handlers             map[string]handler `json:"handlers"`
	Tagging              *tagging           `json:"tagging"`
}

// tagging is the schema's "tagging" section.
type tagging struct {
	Taggable     *bool  `json:"taggable"`
	TagProperty  string `json:"tagProperty"`
	TagUpdatable *bool  `json:"tagUpdatable"`
}

// handler is one entry of the schema's "handlers" object.
type handler struct {
	TimeoutInMinutes *json.Number  `json:"timeoutInMinutes"`
	HandlerSchema    *handlerShape `json:"handlerSchema"`
}

// handlerShape is the part of a handler schema that decides whether awscc
// can call the handler without sending a resource model.
type handlerShape struct {
	Required []string          `json:"required"`
	AllOf    []json.RawMessage `json:"allOf"`
	AnyOf    []json.RawMessage `json:"anyOf"`
	OneOf    []json.RawMessage `json:"oneOf"`
}
