package eval

import (
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

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
		wantPaths []cty.Path
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
			wantPaths: []cty.Path{cty.GetAttrPath("name"), cty.GetAttrPath("tags").IndexString("k")},
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
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := &states.Object{Value: tc.value, Status: states.ObjectReady, Private: []byte("priv")}
			got, err := EncodeObject(schema, in, 3)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nerror %v, want error %t", tc.reason, err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tc.wantJSON, string(got.AttrsJSON)); diff != "" {
				t.Errorf("%s\nJSON: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantPaths, sortedPaths(got.AttrSensitivePaths), ctyOpts); diff != "" {
				t.Errorf("%s\nsensitive paths: -want +got:\n%s", tc.reason, diff)
			}
			if got.SchemaVersion != 3 || got.Status != states.ObjectReady || string(got.Private) != "priv" {
				t.Errorf("%s\nversion %d, status %c, private %q not carried over", tc.reason, got.SchemaVersion, got.Status, got.Private)
			}
			if !in.Value.RawEquals(tc.value) {
				t.Errorf("%s\nEncodeObject changed the object it was given", tc.reason)
			}
			// Reading the object back and applying the schema's marks
			// gives the value that was stored.
			back, err := got.Decode(schema.ImpliedType())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(markedPaths(schema.MarkSensitive(tc.value)), markedPaths(schema.MarkSensitive(back.Value))); diff != "" {
				t.Errorf("%s\nmarks after a round trip: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func sortedPaths(ps []cty.Path) []cty.Path {
	if len(ps) == 0 {
		return nil
	}
	out := append([]cty.Path(nil), ps...)
	sort.Slice(out, func(i, j int) bool { return diags.FormatPath(out[i]) < diags.FormatPath(out[j]) })
	return out
}
