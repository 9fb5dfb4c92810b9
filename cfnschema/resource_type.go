package cfnschema

import (
	"time"
)

// ResourceType is one translated CloudFormation resource type. It is
// immutable and safe for concurrent use; its schemas are built on request
// (see ResourceSchema, DataSourceSchema, PluralDataSourceSchema).
type ResourceType struct {
	// TypeName is the CloudFormation type name, AWS::EC2::FlowLog.
	TypeName string
	// File is the schema file the type was loaded from.
	File string
	// TerraformName is the resource and singular data source type name,
	// awscc_ec2_flow_log.
	TerraformName string
	// PluralName is the plural data source type name, awscc_ec2_flow_logs;
	// empty when the type has none (PluralUnavailable says why).
	PluralName        string
	PluralUnavailable string
	Description       string
	// PrimaryIdentifier lists the pointers whose values, joined with "|" in
	// this order, form the Cloud Control identifier held in id.
	PrimaryIdentifier []string
	// Attributes are the top-level attributes sorted by name, the synthetic
	// id among them.
	Attributes Attributes
	// WriteOnly lists the paths of write-only attributes, whose values the
	// runtime must carry over from prior state on read ("*" steps included:
	// the runtime matches elements).
	WriteOnly []Path
	// Handlers maps a handler name (create, read, update, delete, list) to
	// what the schema says about it.
	Handlers map[string]Handler
	// Tagging is what the schema's tagging section says; nil when the
	// type has no tagging section, or says it is not taggable, or names no
	// tag property that is a top-level attribute.
	Tagging *Tagging
	// Suppressed is non-empty when the type cannot be served, and says why.
	Suppressed string

	byPath    map[string]*Attribute
	byPointer map[string]*Attribute
}

// Handler is what a schema declares about one of its handlers.
type Handler struct {
	// Timeout is the handler's timeoutInMinutes, 0 when unset.
	Timeout time.Duration
}

// Tagging is a taggable type's tag property.
type Tagging struct {
	// TagProperty is the schema's tagProperty pointer, /properties/Tags.
	TagProperty string
	// Attribute is the top-level attribute holding the tags.
	Attribute *Attribute
	// NotUpdatable is set when the schema says tagUpdatable is false: the
	// tags are set on create only, so a change of them replaces the
	// resource. (A createOnly tag property says the same through the
	// attribute's CreateOnly.)
	NotUpdatable bool
}

// Attribute returns the attribute at a Terraform path written as
// Path.String renders it (rule[*].arn), or nil.
func (t *ResourceType) Attribute(path string) *Attribute {
	return t.byPath[path]
}

// AttributeForPointer returns the attribute of a CloudFormation property
// pointer written as Attribute.Pointer renders it (/properties/Rules/*/Arn),
// or nil.
func (t *ResourceType) AttributeForPointer(pointer string) *Attribute {
	return t.byPointer[pointer]
}

// Walk calls fn for every attribute, depth first, each object's attributes
// in name order. Attributes inside collections are visited once, standing
// for every element.
func (t *ResourceType) Walk(fn func(*Attribute)) {
	walkAttributes(t.Attributes, fn)
}

func walkAttributes(attrs []*Attribute, fn func(*Attribute)) {
	for _, a := range attrs {
		fn(a)
		walkType(a.Type, fn)
	}
}

func walkType(t *Type, fn func(*Attribute)) {
	for t != nil {
		if t.Kind == KindObject {
			walkAttributes(t.Attributes, fn)
			return
		}
		t = t.Elem
	}
}
