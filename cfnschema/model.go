package cfnschema

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
)

// Kind is the Terraform kind of an attribute's value.
type Kind int

const (
	KindInvalid Kind = iota
	KindString
	KindInt64
	KindFloat64
	KindBool
	// KindTimestamp is a string with format date-time, typed as
	// timetypes.RFC3339 so that equal instants in different notations are
	// not reported as changes.
	KindTimestamp
	// KindJSON is a string holding JSON (jsontypes.Normalized): the type of
	// objects without properties, of untyped and anyOf-only properties, and
	// of recursive definitions past the recursion depth.
	KindJSON
	KindObject
	KindList
	KindSet
	KindMap
)

var kindNames = [...]string{"invalid", "String", "Int64", "Float64", "Bool", "Timestamp", "JSON", "Object", "List", "Set", "Map"}

// String returns the kind's name (String, Int64, ..., Map).
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "invalid"
	}
	return kindNames[k]
}

// IsCollection reports whether the kind holds elements.
func (k Kind) IsCollection() bool { return k == KindList || k == KindSet || k == KindMap }

// ListMode says how a CloudFormation array that became a Terraform list
// treats order and duplicates.
type ListMode int

const (
	// ListOrdered: insertionOrder true, uniqueItems false (the default).
	ListOrdered ListMode = iota
	// ListMultiset: insertionOrder false, uniqueItems false. A plan
	// modifier keeps the prior value when only the order changed.
	ListMultiset
	// ListUnique: insertionOrder true, uniqueItems true. A validator
	// rejects duplicate elements.
	ListUnique
)

// String names the mode.
func (m ListMode) String() string {
	switch m {
	case ListMultiset:
		return "multiset"
	case ListUnique:
		return "unique"
	}
	return "ordered"
}

// Type is the translated type of an attribute or of a collection's elements,
// with the CloudFormation constraints that become validators.
type Type struct {
	Kind Kind
	// ListMode applies to KindList.
	ListMode ListMode
	// Elem is the element type of KindList, KindSet and KindMap.
	Elem *Type
	// Attributes are the attributes of KindObject, sorted by name.
	Attributes Attributes
	// Constraints are the validation keywords that apply to values of
	// this type.
	Constraints Constraints
	// ValuesByPattern is set on maps whose patternProperties have more than
	// one pattern: each value must satisfy the element constraints of a
	// pattern its key matches. Elem is the first pattern's element type.
	ValuesByPattern []PatternValue
}

// PatternValue is one patternProperties entry of a map.
type PatternValue struct {
	// Pattern is nil for the empty pattern, which matches every key.
	Pattern *Pattern
	Elem    *Type
}

// Constraints are the JSON Schema validation keywords of one value.
type Constraints struct {
	MinLength, MaxLength         *int64
	Pattern                      *Pattern
	Enum                         []any
	Minimum, Maximum             json.Number
	MinItems, MaxItems           *int64
	MinProperties, MaxProperties *int64
	// KeyPatterns are a map's patternProperties patterns; a key must match
	// at least one. Empty when any pattern matches everything.
	KeyPatterns []*Pattern
}

// ReplaceMode says whether a change to an attribute replaces the resource.
type ReplaceMode int

const (
	NoReplace ReplaceMode = iota
	// RequiresReplace: any change replaces (a required create-only
	// property).
	RequiresReplace
	// RequiresReplaceIfConfigured: a change to a configured value replaces
	// (an optional create-only property; a server-chosen value that
	// changes does not).
	RequiresReplaceIfConfigured
)

// Attribute is the translation record of one CloudFormation property: where
// it lives on both sides, its Terraform type and behaviour, and why. A
// Catalog's attributes are shared and must not be modified.
type Attribute struct {
	// Name is the Terraform attribute name.
	Name string
	// CFNName is the CloudFormation property name; empty for the synthetic
	// top-level id.
	CFNName string
	// Path is the Terraform path from the resource root.
	Path Path
	// Pointer is the CloudFormation property pointer in the form the
	// schema's readOnlyProperties use: /properties/Rules/*/Arn, with * for
	// an array element or a map value.
	Pointer string
	Type    *Type
	// Description is the property's description from the schema.
	Description string

	Required, Optional, Computed bool
	// NotNull marks a property the schema requires inside an optional
	// parent: it is Optional, and a validator rejects null when the parent
	// is set.
	NotNull   bool
	Sensitive bool
	// Masked marks a write-only property and an attribute whose element
	// type holds one. It is not Sensitive: HashiCorp's awscc marks nothing
	// Sensitive, and its configurations (an output of a write-only value)
	// must run unchanged. Cairn's human renderings, its Pulumi adapter and
	// its Crossplane kinds treat a masked attribute as a secret
	// (configschema.Attribute.Masked).
	Masked bool

	ReadOnly, CreateOnly, WriteOnly bool
	UseStateForUnknown              bool
	Replace                         ReplaceMode

	// Default is the schema's default as decoded JSON (json.Number for
	// numbers), nil when there is none or it could not be applied.
	Default any
	// InElementType marks attributes of objects nested in a collection of
	// collections. Terraform describes those with element types, which carry
	// no per-attribute flags, validators or plan modifiers.
	InElementType bool
	// Reasons explain every decision that is not a plain consequence of the
	// property's name and type, in the order they were made.
	Reasons []string

	defaultValue attr.Value
}

// Path is a Terraform attribute path from the resource root: attribute
// names, with "*" standing for any element of a list, set or map.
type Path []string

// String renders the path as name.name[*].name.
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s == "*":
			b.WriteString("[*]")
		case i > 0:
			b.WriteByte('.')
			b.WriteString(s)
		default:
			b.WriteString(s)
		}
	}
	return b.String()
}

func (p Path) child(s string) Path {
	out := make(Path, len(p)+1)
	copy(out, p)
	out[len(p)] = s
	return out
}

// Attributes are the attributes of one object, sorted by Terraform name.
// The runtime walks CloudFormation JSON and Terraform values level by level
// with them: names map per object, never through one flat table.
type Attributes []*Attribute

// ByName returns the attribute with a Terraform name, or nil.
func (as Attributes) ByName(name string) *Attribute {
	i := sort.Search(len(as), func(i int) bool { return as[i].Name >= name })
	if i < len(as) && as[i].Name == name {
		return as[i]
	}
	return nil
}

// ByCFNName returns the attribute of a CloudFormation property name, or
// nil.
func (as Attributes) ByCFNName(name string) *Attribute {
	for _, a := range as {
		if a.CFNName == name {
			return a
		}
	}
	return nil
}
