package configschema

import (
	"sync"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// NestingMode says how a nested block or a nested attribute's object repeats.
type NestingMode byte

const (
	nestingInvalid NestingMode = iota
	// NestingSingle is at most one object (null when absent).
	NestingSingle
	// NestingGroup is exactly one object, never null: absent means all its
	// attributes null. Blocks only.
	NestingGroup
	// NestingList is an ordered list of objects.
	NestingList
	// NestingSet is a set of objects.
	NestingSet
	// NestingMap is a map of objects keyed by block label (or map key).
	NestingMap
)

// String returns the mode's name as protocol documents spell it.
func (m NestingMode) String() string {
	switch m {
	case NestingSingle:
		return "single"
	case NestingGroup:
		return "group"
	case NestingList:
		return "list"
	case NestingSet:
		return "set"
	case NestingMap:
		return "map"
	}
	return "invalid"
}

// Block is the schema of a configuration body: a resource, a data source, a
// provider, or a nested block.
type Block struct {
	Attributes  map[string]*Attribute
	BlockTypes  map[string]*NestedBlock
	Description string
	Deprecated  bool
	// Copies are the top-level attributes the provider fills with copies
	// of others' values (see Copy). Like Masked, only providers built
	// into Cairn declare them.
	Copies []Copy

	once      sync.Once
	writeOnly bool
	implied   cty.Type
	spec      hcldec.Spec
	empty     cty.Value
}

// Attribute is one attribute of a block or of a nested object.
type Attribute struct {
	// Type is the attribute's type; unused when NestedType is set.
	Type cty.Type
	// NestedType makes this a nested attribute (protocol v6): an object, or
	// a list, set or map of objects, written with attribute syntax.
	NestedType *Object

	Description string
	Required    bool
	Optional    bool
	Computed    bool
	Sensitive   bool
	Deprecated  bool
	// WriteOnly attributes are sent to the provider but never stored.
	WriteOnly bool
	// Masked attributes hold secrets their provider does not declare
	// Sensitive, so that configurations written for a provider with the
	// same schema run unchanged (awscc's write-only properties: HashiCorp's
	// awscc marks none). The engine treats them as any other value; front
	// ends that show or keep values treat them as Sensitive (Secret). The
	// plugin protocol cannot carry the flag: only providers built into
	// Cairn set it.
	Masked bool
}

// Object is the type of a nested attribute.
type Object struct {
	Attributes map[string]*Attribute
	Nesting    NestingMode
}

// NestedBlock is a block type that may appear inside a Block.
type NestedBlock struct {
	Block
	Nesting  NestingMode
	MinItems int
	MaxItems int
}

// ImpliedType returns the cty object type of a whole value of this block.
// The result is computed once and cached; callers must not mutate the block
// after first use.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	b.build()
	return b.implied
}

// DecoderSpec returns the hcldec specification that decodes a body written
// for this block into a value of ImpliedType. Cached like ImpliedType.
func (b *Block) DecoderSpec() hcldec.Spec {
	if b == nil {
		return hcldec.ObjectSpec{}
	}
	b.build()
	return b.spec
}

func (b *Block) build() {
	b.once.Do(func() {
		b.implied = b.impliedType()
		b.spec = b.decoderSpec()
		b.empty = nullAttrsObject(b)
		b.writeOnly = b.has(isWriteOnly)
	})
}

func (b *Block) impliedType() cty.Type {
	attrs := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		attrs[name] = a.ImpliedType()
	}
	for name, nb := range b.BlockTypes {
		attrs[name] = nb.impliedType()
	}
	return cty.Object(attrs)
}

// ImpliedType returns the attribute's value type.
func (a *Attribute) ImpliedType() cty.Type {
	if a.NestedType != nil {
		return a.NestedType.ImpliedType()
	}
	return a.Type
}

// ImpliedType returns the nested object's collection type.
func (o *Object) ImpliedType() cty.Type {
	attrs := make(map[string]cty.Type, len(o.Attributes))
	for name, a := range o.Attributes {
		attrs[name] = a.ImpliedType()
	}
	obj := cty.Object(attrs)
	switch o.Nesting {
	case NestingList:
		return cty.List(obj)
	case NestingSet:
		return cty.Set(obj)
	case NestingMap:
		return cty.Map(obj)
	default:
		return obj
	}
}

// EmptyValue returns the value of an empty body of this block: every
// attribute null, every nested block collection empty. Cached like
// ImpliedType, because planning uses it as the prior of every create.
func (b *Block) EmptyValue() cty.Value {
	if b == nil {
		return cty.EmptyObjectVal
	}
	b.build()
	return b.empty
}

// ImpliedType returns the type of the block's value within its parent:
// the object, or a list, set or map of it.
func (nb *NestedBlock) ImpliedType() cty.Type { return nb.impliedType() }

func (nb *NestedBlock) impliedType() cty.Type {
	obj := nb.Block.ImpliedType()
	switch nb.Nesting {
	case NestingList:
		// A block list whose objects contain a dynamically-typed attribute
		// cannot be a cty list (elements may differ in type); Terraform uses
		// a tuple there, so do the same.
		if obj.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(obj)
	case NestingSet:
		return cty.Set(obj)
	case NestingMap:
		if obj.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(obj)
	default:
		return obj
	}
}
