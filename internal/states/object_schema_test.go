package states

import (
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestEncodeObject runs EncodeObject and EncodeObjectUnmarked over the
// same cases (they are one rule, the second for callers that already
// hold the value's marks apart), and DecodeObject back.
func TestEncodeObject(t *testing.T) {
	const s = configschema.SensitiveMark
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"name":     {Type: cty.String, Optional: true},
		"password": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":     {Type: cty.Map(cty.String), Optional: true},
	}}
	obj := func(name, password, tags cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": name, "password": password, "tags": tags})
	}
	noTags := cty.NullVal(cty.Map(cty.String))
	cases := map[string]struct {
		reason    string
		value     cty.Value
		wantJSON  string
		wantPaths []string
		wantErr   bool
	}{
		"Plain": {
			value:    obj(cty.StringVal("n"), cty.StringVal("p"), noTags),
			wantJSON: `{"name":"n","password":"p","tags":null}`,
		},
		"SchemaMarksDropped": {
			reason:   "Marks the schema implies are not recorded; reading applies them again.",
			value:    schema.MarkSensitive(obj(cty.StringVal("n"), cty.StringVal("p"), noTags)),
			wantJSON: `{"name":"n","password":"p","tags":null}`,
		},
		"OtherSensitiveMarksKept": {
			reason: "Marks from a sensitive variable are recorded as paths, as Terraform records them.",
			value: schema.MarkSensitive(obj(cty.StringVal("n").Mark(s), cty.StringVal("p"),
				cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v").Mark(s)}))),
			wantJSON:  `{"name":"n","password":"p","tags":{"k":"v"}}`,
			wantPaths: []string{`.name`, `.tags["k"]`},
		},
		"SensitiveMarksWithoutSchemaMarks": {
			reason:    "A value marked only where the schema says nothing is recorded with its paths.",
			value:     obj(cty.StringVal("n").Mark(s), cty.StringVal("p"), noTags),
			wantJSON:  `{"name":"n","password":"p","tags":null}`,
			wantPaths: []string{`.name`},
		},
		"ForeignMarkAtSchemaPath": {
			reason:  "Only the sensitive mark is the schema's; another mark at a sensitive path is refused, not lost.",
			value:   schema.MarkSensitive(obj(cty.StringVal("n"), cty.StringVal("p").Mark("other"), noTags)),
			wantErr: true,
		},
		"ForeignMark": {
			value:   obj(cty.StringVal("n").Mark("other"), cty.StringVal("p"), noTags),
			wantErr: true,
		},
		"Unknown": {
			value:   obj(cty.UnknownVal(cty.String), cty.StringVal("p"), noTags),
			wantErr: true,
		},
	}
	encoders := map[string]func(*Object) (*ObjectSrc, error){
		"EncodeObject": func(o *Object) (*ObjectSrc, error) { return EncodeObject(schema, o, 3) },
		"EncodeObjectUnmarked": func(o *Object) (*ObjectSrc, error) {
			u, pvm := o.Value.UnmarkDeepWithPaths()
			return EncodeObjectUnmarked(schema, o, u, pvm, 3)
		},
	}
	for name, tc := range cases {
		for encName, encode := range encoders {
			t.Run(name+"/"+encName, func(t *testing.T) {
				in := &Object{Value: tc.value, Status: ObjectReady, Private: []byte("priv")}
				got, err := encode(in)
				if (err != nil) != tc.wantErr {
					t.Fatalf("%s\nerror %v, want error %t", tc.reason, err, tc.wantErr)
				}
				if err != nil {
					return
				}
				if diff := cmp.Diff(tc.wantJSON, string(got.AttrsJSON)); diff != "" {
					t.Errorf("%s\nJSON: -want +got:\n%s", tc.reason, diff)
				}
				if diff := cmp.Diff(tc.wantPaths, formatPaths(got.AttrSensitivePaths)); diff != "" {
					t.Errorf("%s\nsensitive paths: -want +got:\n%s", tc.reason, diff)
				}
				if got.SchemaVersion != 3 || got.Status != ObjectReady || string(got.Private) != "priv" {
					t.Errorf("%s\nversion %d, status %c, private %q not carried over", tc.reason, got.SchemaVersion, got.Status, got.Private)
				}
				if !in.Value.RawEquals(tc.value) {
					t.Errorf("%s\n%s changed the object it was given", tc.reason, encName)
				}
				// DecodeObject gives back the value that was stored, with
				// the schema's marks (RawEquals compares marks).
				back, err := DecodeObject(schema, got)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(schema.MarkSensitive(tc.value), back.Value, ctyOpts); diff != "" {
					t.Errorf("%s\nround trip: -want +got:\n%s", tc.reason, diff)
				}
			})
		}
	}
}

// formatPaths spells paths as messages do, sorted; nil for none.
func formatPaths(ps []cty.Path) []string {
	var out []string
	for _, p := range ps {
		out = append(out, diags.FormatPath(p))
	}
	sort.Strings(out)
	return out
}
