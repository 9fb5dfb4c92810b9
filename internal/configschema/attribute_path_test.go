package configschema

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestAttributeByPath(t *testing.T) {
	id := &Attribute{Type: cty.String, Computed: true}
	key := &Attribute{Type: cty.String, Required: true}
	tags := &Attribute{NestedType: &Object{Attributes: map[string]*Attribute{"key": key}, Nesting: NestingList}, Optional: true}
	size := &Attribute{Type: cty.Number, Optional: true}
	b := &Block{
		Attributes: map[string]*Attribute{"id": id, "tags": tags},
		BlockTypes: map[string]*NestedBlock{"disk": {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{"size": size}}}},
	}
	tests := map[string]struct {
		path cty.Path
		want *Attribute
	}{
		"attribute":                     {cty.GetAttrPath("id"), id},
		"element of an attribute":       {cty.GetAttrPath("tags").IndexInt(0), tags},
		"nested attribute":              {cty.GetAttrPath("tags").IndexInt(0).GetAttr("key"), key},
		"attribute of a nested block":   {cty.GetAttrPath("disk").IndexInt(0).GetAttr("size"), size},
		"a block is not an attribute":   {cty.GetAttrPath("disk"), nil},
		"past a primitive attribute":    {cty.GetAttrPath("id").GetAttr("x"), nil},
		"unknown name":                  {cty.GetAttrPath("nope"), nil},
		"unknown name in a nested type": {cty.GetAttrPath("tags").GetAttr("nope"), nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := b.AttributeByPath(tc.path); got != tc.want {
				t.Errorf("AttributeByPath(%#v) = %#v, want %#v", tc.path, got, tc.want)
			}
		})
	}
}
