package configschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// ctyOpts compares cty values with RawEquals (marks and refinements
// included) and types with Equals.
var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
}

func strAttr(flags string) *Attribute { return withFlags(&Attribute{Type: cty.String}, flags) }

func withFlags(a *Attribute, flags string) *Attribute {
	for _, f := range flags {
		switch f {
		case 'R':
			a.Required = true
		case 'O':
			a.Optional = true
		case 'C':
			a.Computed = true
		case 'S':
			a.Sensitive = true
		}
	}
	return a
}

// nested returns a nested block type holding only attributes. Blocks are
// never copied (they cache their types), so tests build each one afresh.
func nested(mode NestingMode, attrs map[string]*Attribute) *NestedBlock {
	return &NestedBlock{Block: Block{Attributes: attrs}, Nesting: mode}
}

func TestImpliedType(t *testing.T) {
	inner := map[string]*Attribute{"a": strAttr("O"), "n": {Type: cty.Number, Required: true}}
	innerObj := cty.Object(map[string]cty.Type{"a": cty.String, "n": cty.Number})
	dynInner := map[string]*Attribute{"v": {Type: cty.DynamicPseudoType, Optional: true}}
	dynObj := cty.Object(map[string]cty.Type{"v": cty.DynamicPseudoType})

	cases := map[string]struct {
		reason string
		block  *Block
		want   cty.Type
	}{
		"Nil": {
			reason: "A nil schema is the empty object, e.g. a provider without configuration.",
			block:  nil,
			want:   cty.EmptyObject,
		},
		"Empty": {
			block: &Block{},
			want:  cty.EmptyObject,
		},
		"PrimitiveAndCollectionAttributes": {
			block: &Block{Attributes: map[string]*Attribute{
				"s": strAttr("R"),
				"n": {Type: cty.Number, Optional: true},
				"b": {Type: cty.Bool, Computed: true},
				"l": {Type: cty.List(cty.String), Optional: true},
				"m": {Type: cty.Map(cty.Number), Optional: true},
				"d": {Type: cty.DynamicPseudoType, Optional: true},
			}},
			want: cty.Object(map[string]cty.Type{
				"s": cty.String, "n": cty.Number, "b": cty.Bool,
				"l": cty.List(cty.String), "m": cty.Map(cty.Number), "d": cty.DynamicPseudoType,
			}),
		},
		"NestedAttributeSingle": {
			block: &Block{Attributes: map[string]*Attribute{"o": {NestedType: &Object{Attributes: inner, Nesting: NestingSingle}, Optional: true}}},
			want:  cty.Object(map[string]cty.Type{"o": innerObj}),
		},
		"NestedAttributeList": {
			block: &Block{Attributes: map[string]*Attribute{"o": {NestedType: &Object{Attributes: inner, Nesting: NestingList}, Optional: true}}},
			want:  cty.Object(map[string]cty.Type{"o": cty.List(innerObj)}),
		},
		"NestedAttributeSet": {
			block: &Block{Attributes: map[string]*Attribute{"o": {NestedType: &Object{Attributes: inner, Nesting: NestingSet}, Optional: true}}},
			want:  cty.Object(map[string]cty.Type{"o": cty.Set(innerObj)}),
		},
		"NestedAttributeMap": {
			block: &Block{Attributes: map[string]*Attribute{"o": {NestedType: &Object{Attributes: inner, Nesting: NestingMap}, Optional: true}}},
			want:  cty.Object(map[string]cty.Type{"o": cty.Map(innerObj)}),
		},
		"NestedAttributeInNestedAttribute": {
			block: &Block{Attributes: map[string]*Attribute{"o": {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{
				"p": {Optional: true, NestedType: &Object{Nesting: NestingMap, Attributes: map[string]*Attribute{"x": strAttr("O")}}},
			}}}}},
			want: cty.Object(map[string]cty.Type{"o": cty.List(cty.Object(map[string]cty.Type{
				"p": cty.Map(cty.Object(map[string]cty.Type{"x": cty.String})),
			}))}),
		},
		"BlockSingle": {
			block: &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingSingle, inner)}},
			want:  cty.Object(map[string]cty.Type{"b": innerObj}),
		},
		"BlockGroup": {
			block: &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingGroup, inner)}},
			want:  cty.Object(map[string]cty.Type{"b": innerObj}),
		},
		"BlockList": {
			block: &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingList, inner)}},
			want:  cty.Object(map[string]cty.Type{"b": cty.List(innerObj)}),
		},
		"BlockSet": {
			block: &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingSet, inner)}},
			want:  cty.Object(map[string]cty.Type{"b": cty.Set(innerObj)}),
		},
		"BlockMap": {
			block: &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingMap, inner)}},
			want:  cty.Object(map[string]cty.Type{"b": cty.Map(innerObj)}),
		},
		"BlockListDynamic": {
			reason: "Blocks whose objects may differ in type cannot form a list; the whole value is dynamic, as in Terraform.",
			block:  &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingList, dynInner)}},
			want:   cty.Object(map[string]cty.Type{"b": cty.DynamicPseudoType}),
		},
		"BlockMapDynamic": {
			block: &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingMap, dynInner)}},
			want:  cty.Object(map[string]cty.Type{"b": cty.DynamicPseudoType}),
		},
		"BlockSingleDynamic": {
			reason: "A single object may hold a dynamic attribute; only collections need uniform element types.",
			block:  &Block{BlockTypes: map[string]*NestedBlock{"b": nested(NestingSingle, dynInner)}},
			want:   cty.Object(map[string]cty.Type{"b": dynObj}),
		},
		"BlockInBlock": {
			block: &Block{BlockTypes: map[string]*NestedBlock{"outer": {Nesting: NestingList, Block: Block{
				Attributes: map[string]*Attribute{"x": strAttr("O")},
				BlockTypes: map[string]*NestedBlock{"inner": nested(NestingSet, map[string]*Attribute{"y": {Type: cty.Bool, Optional: true}})},
			}}}},
			want: cty.Object(map[string]cty.Type{"outer": cty.List(cty.Object(map[string]cty.Type{
				"x":     cty.String,
				"inner": cty.Set(cty.Object(map[string]cty.Type{"y": cty.Bool})),
			}))}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.block.ImpliedType()
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if again := tc.block.ImpliedType(); !again.Equals(got) {
				t.Errorf("second call returned %#v", again)
			}
			if errs := tc.block.EmptyValue().Type().TestConformance(got); len(errs) > 0 {
				t.Errorf("EmptyValue does not conform to ImpliedType: %v", errs)
			}
		})
	}
}

func TestEmptyValue(t *testing.T) {
	inner := map[string]*Attribute{"a": strAttr("O")}
	innerObj := cty.Object(map[string]cty.Type{"a": cty.String})
	dynInner := map[string]*Attribute{"v": {Type: cty.DynamicPseudoType, Optional: true}}

	cases := map[string]struct {
		reason string
		block  *Block
		want   cty.Value
	}{
		"Nil": {block: nil, want: cty.EmptyObjectVal},
		"Attributes": {
			reason: "Every attribute is null of its own type, nested attributes included.",
			block: &Block{Attributes: map[string]*Attribute{
				"s": strAttr("R"),
				"l": {Type: cty.List(cty.Number), Optional: true},
				"o": {Optional: true, NestedType: &Object{Nesting: NestingSet, Attributes: inner}},
			}},
			want: cty.ObjectVal(map[string]cty.Value{
				"s": cty.NullVal(cty.String),
				"l": cty.NullVal(cty.List(cty.Number)),
				"o": cty.NullVal(cty.Set(innerObj)),
			}),
		},
		"Blocks": {
			reason: "Absent block collections are empty, not null; a single block is null; a group block is an object of nulls.",
			block: &Block{BlockTypes: map[string]*NestedBlock{
				"single": nested(NestingSingle, inner),
				"group":  nested(NestingGroup, inner),
				"list":   nested(NestingList, inner),
				"set":    nested(NestingSet, inner),
				"map":    nested(NestingMap, inner),
				"dlist":  nested(NestingList, dynInner),
				"dmap":   nested(NestingMap, dynInner),
			}},
			want: cty.ObjectVal(map[string]cty.Value{
				"single": cty.NullVal(innerObj),
				"group":  cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String)}),
				"list":   cty.ListValEmpty(innerObj),
				"set":    cty.SetValEmpty(innerObj),
				"map":    cty.MapValEmpty(innerObj),
				"dlist":  cty.EmptyTupleVal,
				"dmap":   cty.EmptyObjectVal,
			}),
		},
		"GroupInGroup": {
			block: &Block{BlockTypes: map[string]*NestedBlock{
				"g": {Nesting: NestingGroup, Block: Block{
					Attributes: map[string]*Attribute{"x": {Type: cty.Number, Optional: true}},
					BlockTypes: map[string]*NestedBlock{"h": nested(NestingGroup, inner), "l": nested(NestingList, inner)},
				}},
			}},
			want: cty.ObjectVal(map[string]cty.Value{"g": cty.ObjectVal(map[string]cty.Value{
				"x": cty.NullVal(cty.Number),
				"h": cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String)}),
				"l": cty.ListValEmpty(innerObj),
			})}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.block.EmptyValue()
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if errs := got.Type().TestConformance(tc.block.ImpliedType()); len(errs) > 0 {
				t.Errorf("%s\nEmptyValue does not conform to ImpliedType: %v", tc.reason, errs)
			}
		})
	}
}
