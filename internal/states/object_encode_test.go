package states

import (
	"regexp"
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
}

func TestObjectEncodeDecode(t *testing.T) {
	const s = configschema.SensitiveMark
	ty := cty.Object(map[string]cty.Type{
		"id":    cty.String,
		"list":  cty.List(cty.String),
		"tags":  cty.Map(cty.String),
		"dyn":   cty.DynamicPseudoType,
		"count": cty.Number,
	})
	obj := func(id, list, tags, dyn cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "list": list, "tags": tags, "dyn": dyn, "count": cty.NumberIntVal(3)})
	}
	list := cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})
	tags := cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})
	deps := []addrs.AbsResource{managedRes("terraform_data", "dep")}

	cases := map[string]struct {
		reason    string
		value     cty.Value
		wantJSON  string
		wantPaths []string
		wantErr   bool
	}{
		"Plain": {
			value:    obj(cty.StringVal("x"), list, tags, cty.StringVal("d")),
			wantJSON: `{"count":3,"dyn":{"value":"d","type":"string"},"id":"x","list":["a","b"],"tags":{"k":"v"}}`,
		},
		"Nulls": {
			value:    obj(cty.NullVal(cty.String), cty.NullVal(cty.List(cty.String)), cty.NullVal(cty.Map(cty.String)), cty.NullVal(cty.DynamicPseudoType)),
			wantJSON: `{"count":3,"dyn":null,"id":null,"list":null,"tags":null}`,
		},
		"SensitivePaths": {
			reason:    "Sensitive marks become paths: attributes, list elements, map keys, whole collections.",
			value:     obj(cty.StringVal("x").Mark(s), cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b").Mark(s)}), cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v").Mark(s)}), cty.StringVal("d").Mark(s)),
			wantJSON:  `{"count":3,"dyn":{"value":"d","type":"string"},"id":"x","list":["a","b"],"tags":{"k":"v"}}`,
			wantPaths: []string{`.dyn`, `.id`, `.list[1]`, `.tags["k"]`},
		},
		"WholeCollectionSensitive": {
			value:     obj(cty.StringVal("x"), list.Mark(s), tags, cty.NullVal(cty.DynamicPseudoType)),
			wantJSON:  `{"count":3,"dyn":null,"id":"x","list":["a","b"],"tags":{"k":"v"}}`,
			wantPaths: []string{`.list`},
		},
		"Unknown": {
			reason:  "State holds only real objects; an unknown value is a bug in the caller.",
			value:   obj(cty.UnknownVal(cty.String), list, tags, cty.NullVal(cty.DynamicPseudoType)),
			wantErr: true,
		},
		"UnknownNested": {
			value:   obj(cty.StringVal("x"), cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)}), tags, cty.NullVal(cty.DynamicPseudoType)),
			wantErr: true,
		},
		"UnknownSensitive": {
			value:   obj(cty.UnknownVal(cty.String).Mark(s), list, tags, cty.NullVal(cty.DynamicPseudoType)),
			wantErr: true,
		},
		"ForeignMark": {
			reason:  "Only the sensitive mark can be stored; any other is refused, never dropped.",
			value:   obj(cty.StringVal("x").Mark("other"), list, tags, cty.NullVal(cty.DynamicPseudoType)),
			wantErr: true,
		},
		"ForeignMarkBesideSensitive": {
			value:   obj(cty.StringVal("x").WithMarks(cty.NewValueMarks(s, "other")), list, tags, cty.NullVal(cty.DynamicPseudoType)),
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := &Object{Value: tc.value, Private: []byte("p"), Status: ObjectTainted, Dependencies: deps, CreateBeforeDestroy: true}
			got, err := in.Encode(ty, 2)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nEncode error %v, want error %t", tc.reason, err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tc.wantJSON, string(got.AttrsJSON)); diff != "" {
				t.Errorf("%s\nJSON: -want +got:\n%s", tc.reason, diff)
			}
			var paths []string
			for _, p := range got.AttrSensitivePaths {
				paths = append(paths, diags.FormatPath(p))
			}
			sort.Strings(paths)
			if diff := cmp.Diff(tc.wantPaths, paths); diff != "" {
				t.Errorf("%s\nsensitive paths: -want +got:\n%s", tc.reason, diff)
			}
			if got.SchemaVersion != 2 || got.Status != ObjectTainted || string(got.Private) != "p" || !got.CreateBeforeDestroy || len(got.Dependencies) != 1 {
				t.Errorf("%s\nmetadata not carried over: %+v", tc.reason, got)
			}

			back, err := got.Decode(ty)
			if err != nil {
				t.Fatalf("%s\nDecode: %s", tc.reason, err)
			}
			if diff := cmp.Diff(tc.value, back.Value, ctyOpts); diff != "" {
				t.Errorf("%s\nround trip: -want +got:\n%s", tc.reason, diff)
			}
			if back.Status != ObjectTainted || string(back.Private) != "p" || !back.CreateBeforeDestroy || len(back.Dependencies) != 1 {
				t.Errorf("%s\nmetadata not carried back: %+v", tc.reason, back)
			}
		})
	}
}

func TestObjectSrcDecodeErrors(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "n": cty.Number})
	cases := map[string]struct {
		reason string
		json   string
	}{
		"WrongType":        {json: `{"id":"x","n":"many"}`},
		"UnknownAttribute": {reason: "A schema change without a version bump is an error, not silently ignored.", json: `{"id":"x","n":1,"extra":true}`},
		"NotJSON":          {json: `{"id":`},
		"NotAnObject":      {json: `[1]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := &ObjectSrc{AttrsJSON: []byte(tc.json)}
			if got, err := o.Decode(ty); err == nil {
				t.Errorf("%s\nDecode(%s) = %#v, want an error", tc.reason, tc.json, got.Value)
			}
		})
	}
}

func TestNewDeposedKey(t *testing.T) {
	format := regexp.MustCompile(`^[0-9a-f]{8}$`)
	t.Run("Format", func(t *testing.T) {
		for range 100 {
			if k := NewDeposedKey(nil); !format.MatchString(string(k)) {
				t.Fatalf("NewDeposedKey() = %q, want eight lower-case hex digits as Terraform writes", k)
			}
		}
	})
	t.Run("UniqueWithinInstance", func(t *testing.T) {
		is := &ResourceInstance{Deposed: map[addrs.DeposedKey]*ObjectSrc{}}
		for range 2000 {
			k := NewDeposedKey(is)
			if !format.MatchString(string(k)) {
				t.Fatalf("NewDeposedKey() = %q", k)
			}
			if is.Deposed[k] != nil {
				t.Fatalf("NewDeposedKey returned %q, already used by the instance", k)
			}
			if k == addrs.NotDeposed {
				t.Fatalf("NewDeposedKey returned the current object's key")
			}
			is.Deposed[k] = src(string(k))
		}
	})
}
