package diags

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

func TestFormatPath(t *testing.T) {
	setOfObjects := cty.ObjectVal(map[string]cty.Value{"n": cty.StringVal("a")})
	cases := map[string]struct {
		reason string
		path   cty.Path
		want   string
	}{
		"Empty": {
			path: nil,
			want: "",
		},
		"Attribute": {
			path: cty.GetAttrPath("a"),
			want: ".a",
		},
		"Nested": {
			path: cty.GetAttrPath("a").IndexString("k").IndexInt(2).GetAttr("b"),
			want: `.a["k"][2].b`,
		},
		"StringKeyEscapes": {
			reason: "a key is quoted with Go escapes, as Terraform does",
			path:   cty.GetAttrPath("tags").IndexString("say \"hi\"\n\\ é\x00"),
			want:   `.tags["say \"hi\"\n\\ é\x00"]`,
		},
		"EmptyStringKey": {
			path: cty.GetAttrPath("tags").IndexString(""),
			want: `.tags[""]`,
		},
		"BigIndex": {
			reason: "a whole number is written in full, never in exponent form",
			path:   cty.GetAttrPath("a").Index(cty.NumberIntVal(12345678901)),
			want:   ".a[12345678901]",
		},
		"LeadingIndex": {
			path: cty.IndexIntPath(0).GetAttr("x"),
			want: "[0].x",
		},
		"UnknownStringKey": {
			reason: "Terraform 1.5.7 prints an unknown key as (not yet known); the copies printed [...], [?] or panicked",
			path:   cty.GetAttrPath("m").Index(cty.UnknownVal(cty.String)),
			want:   ".m[(not yet known)]",
		},
		"UnknownNumberKey": {
			path: cty.GetAttrPath("l").Index(cty.UnknownVal(cty.Number)).GetAttr("x"),
			want: ".l[(not yet known)].x",
		},
		"UnknownDynamicKey": {
			path: cty.GetAttrPath("l").Index(cty.DynamicVal),
			want: ".l[(not yet known)]",
		},
		"NullKey": {
			path: cty.GetAttrPath("m").Index(cty.NullVal(cty.String)),
			want: ".m[null]",
		},
		"SetOfStringsElement": {
			reason: "a set element's path key is the element itself",
			path:   cty.GetAttrPath("s").Index(cty.StringVal("x")),
			want:   `.s["x"]`,
		},
		"SetOfObjectsElement": {
			reason: "an object key would be as long as the element: elided",
			path:   cty.GetAttrPath("s").Index(setOfObjects).GetAttr("n"),
			want:   ".s[...].n",
		},
		"BoolKey": {
			path: cty.GetAttrPath("s").Index(cty.True),
			want: ".s[...]",
		},
		"SensitiveKey": {
			reason: "a marked key may be a secret set element; it is never printed",
			path:   cty.GetAttrPath("s").Index(cty.StringVal("hunter2").Mark("sensitive")),
			want:   ".s[(sensitive value)]",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FormatPath(tc.path)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestFormatError(t *testing.T) {
	convErr := func(v cty.Value, ty cty.Type) error {
		_, err := convert.Convert(v, ty)
		if err == nil {
			t.Fatalf("converting %#v to %s succeeded", v, ty.FriendlyName())
		}
		return err
	}
	cases := map[string]struct {
		reason string
		err    error
		want   string
	}{
		"RequiredOnly": {
			reason: "Terraform 1.5.7's cty says only what was required.",
			err:    convErr(cty.TupleVal([]cty.Value{cty.True}), cty.Bool),
			want:   "bool required",
		},
		"StringToBool": {
			err:  convErr(cty.StringVal("maybe"), cty.Bool),
			want: "a bool is required",
		},
		"Path": {
			err:  cty.GetAttrPath("tags").IndexString("a").NewErrorf("string required, but have tuple"),
			want: `.tags["a"]: string required`,
		},
		"NumberIndex": {
			err:  cty.IndexIntPath(2).NewErrorf("number required"),
			want: "[2]: number required",
		},
		"ListElement": {
			err:  convErr(cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x")}), cty.List(cty.Number)),
			want: "[1]: a number is required",
		},
		"MapAttribute": {
			err: convErr(cty.ObjectVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"n": cty.StringVal("x")})}),
				cty.Map(cty.Object(map[string]cty.Type{"n": cty.Bool}))),
			want: `["k"].n: a bool is required`,
		},
		"ObjectAttribute": {
			reason: "cty names an object's attribute itself; no path is added",
			err:    convErr(cty.ObjectVal(map[string]cty.Value{"n": cty.TupleVal([]cty.Value{cty.True})}), cty.Object(map[string]cty.Type{"n": cty.String})),
			want:   `attribute "n": string required`,
		},
		"Plain": {
			err:  errors.New("something else"),
			want: "something else",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FormatError(tc.err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
