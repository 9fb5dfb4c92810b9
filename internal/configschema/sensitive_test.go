package configschema

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// pathString renders a cty path as .a["k"][0] for readable comparisons.
func pathString(p cty.Path) string {
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else {
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().String())
			}
		}
	}
	return b.String()
}

func pathStrings(ps []cty.Path) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, pathString(p))
	}
	sort.Strings(out)
	return out
}

// markedPaths returns "path: mark,mark" for every marked place in v, sorted.
func markedPaths(v cty.Value) []string {
	_, pvm := v.UnmarkDeepWithPaths()
	var out []string
	for _, pm := range pvm {
		var ms []string
		for m := range pm.Marks {
			ms = append(ms, fmt.Sprint(m))
		}
		sort.Strings(ms)
		out = append(out, pathString(pm.Path)+": "+strings.Join(ms, ","))
	}
	sort.Strings(out)
	return out
}

// sensitiveSchema has a sensitive attribute at every kind of place a path
// can lead to.
func sensitiveSchema() *Block {
	secretObj := map[string]*Attribute{"secret": strAttr("OS"), "plain": strAttr("O")}
	return &Block{
		Attributes: map[string]*Attribute{
			"password": strAttr("OS"),
			"name":     strAttr("O"),
			"nlist":    {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: secretObj}},
			"nmap":     {Optional: true, NestedType: &Object{Nesting: NestingMap, Attributes: secretObj}},
			"nset":     {Optional: true, NestedType: &Object{Nesting: NestingSet, Attributes: secretObj}},
			"nsingle":  {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: secretObj}},
		},
		BlockTypes: map[string]*NestedBlock{
			"blist":  {Nesting: NestingList, Block: Block{Attributes: secretObj}},
			"bset":   {Nesting: NestingSet, Block: Block{Attributes: secretObj}},
			"bmap":   {Nesting: NestingMap, Block: Block{Attributes: secretObj}},
			"bgroup": {Nesting: NestingGroup, Block: Block{Attributes: secretObj}},
			"plain":  {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{"x": strAttr("O")}}},
		},
	}
}

func secretObjVal(secret, plain string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"secret": cty.StringVal(secret), "plain": cty.StringVal(plain)})
}

// sensitiveValue builds a value of sensitiveSchema with the given changes
// over an empty value.
func sensitiveValue(changes map[string]cty.Value) cty.Value {
	attrs := sensitiveSchema().EmptyValue().AsValueMap()
	for k, v := range changes {
		attrs[k] = v
	}
	return cty.ObjectVal(attrs)
}

func TestSensitivePaths(t *testing.T) {
	cases := map[string]struct {
		reason string
		value  cty.Value
		want   []string
	}{
		"Empty": {
			reason: "Top-level sensitive attributes are listed even when null; empty collections contribute nothing, a set always its whole self.",
			value:  sensitiveValue(nil),
			want:   []string{".bgroup.secret", ".bset", ".nset", ".password"},
		},
		"Populated": {
			value: sensitiveValue(map[string]cty.Value{
				"nlist":   cty.ListVal([]cty.Value{secretObjVal("a", "b"), secretObjVal("c", "d")}),
				"nmap":    cty.MapVal(map[string]cty.Value{"k": secretObjVal("a", "b")}),
				"nset":    cty.SetVal([]cty.Value{secretObjVal("a", "b")}),
				"nsingle": secretObjVal("a", "b"),
				"blist":   cty.ListVal([]cty.Value{secretObjVal("a", "b")}),
				"bset":    cty.SetVal([]cty.Value{secretObjVal("a", "b"), secretObjVal("c", "d")}),
				"bmap":    cty.MapVal(map[string]cty.Value{"x": secretObjVal("a", "b"), "y": secretObjVal("c", "d")}),
			}),
			want: []string{
				`.bgroup.secret`,
				`.blist[0].secret`,
				`.bmap["x"].secret`,
				`.bmap["y"].secret`,
				`.bset`,
				`.nlist[0].secret`,
				`.nlist[1].secret`,
				`.nmap["k"].secret`,
				`.nset`,
				`.nsingle.secret`,
				`.password`,
			},
		},
		"Null": {
			value: cty.NullVal(sensitiveSchema().ImpliedType()),
			want:  []string{},
		},
		"Unknown": {
			value: cty.UnknownVal(sensitiveSchema().ImpliedType()),
			want:  []string{},
		},
		"UnknownNestedList": {
			reason: "An unknown collection has no elements to name yet.",
			value:  sensitiveValue(map[string]cty.Value{"nlist": cty.UnknownVal(cty.List(cty.Object(map[string]cty.Type{"secret": cty.String, "plain": cty.String})))}),
			want:   []string{".bgroup.secret", ".bset", ".nset", ".password"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := pathStrings(sensitiveSchema().SensitivePaths(tc.value))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestHasSensitive(t *testing.T) {
	cases := map[string]struct {
		block *Block
		want  bool
	}{
		"None":        {block: &Block{Attributes: map[string]*Attribute{"a": strAttr("O")}}, want: false},
		"Attribute":   {block: &Block{Attributes: map[string]*Attribute{"a": strAttr("OS")}}, want: true},
		"NestedAttr":  {block: &Block{Attributes: map[string]*Attribute{"a": {NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{"b": {NestedType: &Object{Nesting: NestingSingle, Attributes: map[string]*Attribute{"c": strAttr("S")}}}}}}}}, want: true},
		"NestedBlock": {block: &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSet, Block: Block{Attributes: map[string]*Attribute{"c": strAttr("S")}}}}}, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.block.HasSensitive(); got != tc.want {
				t.Errorf("HasSensitive() = %t, want %t", got, tc.want)
			}
		})
	}
}

func TestMarkSensitive(t *testing.T) {
	cases := map[string]struct {
		reason string
		schema *Block
		value  cty.Value
		want   []string
	}{
		"EveryKindOfPlace": {
			schema: sensitiveSchema(),
			value: sensitiveValue(map[string]cty.Value{
				"password": cty.StringVal("p"),
				"name":     cty.StringVal("n"),
				"nlist":    cty.ListVal([]cty.Value{secretObjVal("a", "b")}),
				"nset":     cty.SetVal([]cty.Value{secretObjVal("a", "b")}),
				"bmap":     cty.MapVal(map[string]cty.Value{"x": secretObjVal("a", "b")}),
			}),
			want: []string{
				".bgroup.secret: sensitive",
				`.bmap["x"].secret: sensitive`,
				".bset: sensitive",
				".nlist[0].secret: sensitive",
				".nset: sensitive",
				".password: sensitive",
			},
		},
		"NoSensitiveAttributes": {
			reason: "A schema without sensitive attributes returns the value untouched.",
			schema: &Block{Attributes: map[string]*Attribute{"a": strAttr("O")}},
			value:  cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")}),
			want:   nil,
		},
		"ExistingMarksKept": {
			reason: "Marks already on the value stay; schema marks are added beside them.",
			schema: &Block{Attributes: map[string]*Attribute{"a": strAttr("OS"), "b": strAttr("O")}},
			value:  cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("y").Mark("other")}),
			want:   []string{".a: sensitive", ".b: other"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.schema.MarkSensitive(tc.value)
			if diff := cmp.Diff(tc.want, markedPaths(got)); diff != "" {
				t.Errorf("%s\nmarks: -want +got:\n%s", tc.reason, diff)
			}
			unmarked, _ := got.UnmarkDeep()
			want, _ := tc.value.UnmarkDeep()
			if !unmarked.RawEquals(want) {
				t.Errorf("%s\nMarkSensitive changed the value: %#v", tc.reason, unmarked)
			}
		})
	}
}

func TestWithoutSchemaMarks(t *testing.T) {
	schema := &Block{
		Attributes: map[string]*Attribute{
			"password": strAttr("OS"),
			"name":     strAttr("O"),
			"tags":     {Type: cty.Map(cty.String), Optional: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"creds": {Nesting: NestingSet, Block: Block{Attributes: map[string]*Attribute{"key": strAttr("OS"), "user": strAttr("O")}}},
			"items": {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{"key": strAttr("OS"), "user": strAttr("O")}}},
		},
	}
	cred := func(key, user cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"key": key, "user": user})
	}
	credTy := cty.Object(map[string]cty.Type{"key": cty.String, "user": cty.String})
	obj := func(password, name, tags, creds, items cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"password": password, "name": name, "tags": tags, "creds": creds, "items": items})
	}
	noTags := cty.NullVal(cty.Map(cty.String))
	noCreds := cty.SetValEmpty(credTy)
	noItems := cty.ListValEmpty(credTy)
	const s = SensitiveMark

	cases := map[string]struct {
		reason string
		value  cty.Value
		want   []string
	}{
		"OnlySchemaMarks": {
			reason: "Marks the schema implies are removed; state records only the others.",
			value: schema.MarkSensitive(obj(cty.StringVal("p"), cty.StringVal("n"), noTags, noCreds,
				cty.ListVal([]cty.Value{cred(cty.StringVal("k"), cty.StringVal("u"))}))),
			want: nil,
		},
		"MarksFromElsewhereKept": {
			reason: "A sensitive variable assigned to a non-sensitive attribute keeps its mark.",
			value: schema.MarkSensitive(obj(cty.StringVal("p"), cty.StringVal("n").Mark(s),
				cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b").Mark(s)}), noCreds,
				cty.ListVal([]cty.Value{cred(cty.StringVal("k"), cty.StringVal("u").Mark(s))}))),
			want: []string{`.items[0].user: sensitive`, ".name: sensitive", `.tags["a"]: sensitive`},
		},
		"SetMarkedWhole": {
			reason: "A sensitive attribute inside a set marks the whole set, which is the schema's mark and is removed.",
			value: schema.MarkSensitive(obj(cty.StringVal("p"), cty.StringVal("n"), noTags,
				cty.SetVal([]cty.Value{cred(cty.StringVal("k"), cty.StringVal("u"))}), noItems)),
			want: nil,
		},
		"OtherMarkAtSchemaPathKept": {
			reason: "Only the sensitive mark is the schema's; any other mark at a sensitive path came from elsewhere and must survive, so the state encoder can refuse it rather than lose it silently.",
			value:  schema.MarkSensitive(obj(cty.StringVal("p").Mark("other"), cty.StringVal("n"), noTags, noCreds, noItems)),
			want:   []string{".password: other"},
		},
		"Unmarked": {
			value: obj(cty.StringVal("p"), cty.StringVal("n"), noTags, noCreds, noItems),
			want:  nil,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := schema.WithoutSchemaMarks(tc.value)
			if diff := cmp.Diff(tc.want, markedPaths(got)); diff != "" {
				t.Errorf("%s\nmarks: -want +got:\n%s", tc.reason, diff)
			}
			unmarked, _ := got.UnmarkDeep()
			want, _ := tc.value.UnmarkDeep()
			if !unmarked.RawEquals(want) {
				t.Errorf("%s\nWithoutSchemaMarks changed the value: %#v", tc.reason, unmarked)
			}
			// Nothing is lost that the schema would not put back.
			wantBack := markedPaths(schema.MarkSensitive(tc.value))
			if diff := cmp.Diff(wantBack, markedPaths(schema.MarkSensitive(got))); diff != "" {
				t.Errorf("%s\nMarkSensitive(WithoutSchemaMarks(v)) marks: -want +got:\n%s", tc.reason, diff)
			}
		})
	}

	t.Run("SchemaWithoutSensitive", func(t *testing.T) {
		plain := &Block{Attributes: map[string]*Attribute{"a": strAttr("O")}}
		v := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x").Mark(s)})
		if got := plain.WithoutSchemaMarks(v); !got.RawEquals(v) {
			t.Errorf("marks changed: %v", markedPaths(got))
		}
	})
}
