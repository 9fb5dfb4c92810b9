package propval

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
)

func TestFromCty(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      cty.Value
		want    resource.PropertyMap
		wantErr string
	}{
		"NullsLeftOut": {reason: "null attributes are absent", in: obj(nil), want: resource.PropertyMap{}},
		"SchemaSensitive": {
			reason: "a sensitive attribute is always a secret",
			in:     obj(map[string]cty.Value{"password": cty.StringVal("p"), "port_number": cty.NumberIntVal(1)}),
			want:   resource.PropertyMap{"password": resource.MakeSecret(resource.NewStringProperty("p")), "portNumber": resource.NewNumberProperty(1)},
		},
		"MarkedSecret": {
			reason: "a marked value is a secret",
			in:     obj(map[string]cty.Value{"name": cty.StringVal("n").Mark(configschema.SensitiveMark)}),
			want:   resource.PropertyMap{"name": resource.MakeSecret(resource.NewStringProperty("n"))},
		},
		"Unknown": {
			reason: "unknowns are computed",
			in:     obj(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "rules": cty.ListVal([]cty.Value{rule(cty.UnknownVal(cty.Number))})}),
			want: resource.PropertyMap{"id": computed, "rules": resource.NewArrayProperty([]resource.PropertyValue{
				resource.NewObjectProperty(resource.PropertyMap{"fromPort": computed}),
			})},
		},
		"Dynamic": {
			reason: "dynamic objects keep their keys",
			in:     obj(map[string]cty.Value{"extra": cty.ObjectVal(map[string]cty.Value{"snake_key": cty.True})}),
			want:   resource.PropertyMap{"extra": resource.NewObjectProperty(resource.PropertyMap{"snake_key": resource.NewBoolProperty(true)})},
		},
		"Decimal": {
			reason: "a decimal float64 holds to its shortest form passes",
			in:     obj(map[string]cty.Value{"port_number": cty.MustParseNumberVal("0.1")}),
			want:   resource.PropertyMap{"portNumber": resource.NewNumberProperty(0.1)},
		},
		"BigInteger": {
			reason:  "2^53+1 has no float64",
			in:      obj(map[string]cty.Value{"port_number": cty.MustParseNumberVal("9007199254740993")}),
			wantErr: "portNumber: this number cannot",
		},
		"SecretBigInteger": {
			reason:  "a secret number that cannot be encoded is not quoted in the error",
			in:      obj(map[string]cty.Value{"port_number": cty.MustParseNumberVal("9007199254740993").Mark(configschema.SensitiveMark)}),
			wantErr: "portNumber: this number cannot",
		},
		"InexactNumber": {
			reason:  "a number float64 cannot hold is refused",
			in:      obj(map[string]cty.Value{"port_number": cty.NumberVal(new(big.Float).SetPrec(512).SetInt64(1).SetMantExp(big.NewFloat(1), 2000))}),
			wantErr: "portNumber: this number cannot",
		},
		"OtherMark": {
			reason:  "marks other than sensitive are refused",
			in:      obj(map[string]cty.Value{"name": cty.StringVal("n").Mark("ephemeral")}),
			wantErr: "name: value carries mark ephemeral",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Converter{Block: testBlock()}.FromCty(tc.in)
			if tc.wantErr != "" {
				if err == nil || len(err.Error()) < len(tc.wantErr) || err.Error()[:len(tc.wantErr)] != tc.wantErr {
					t.Fatalf("%s: want an error starting %q, got %v", tc.reason, tc.wantErr, err)
				}
				if strings.Contains(err.Error(), "9007199254740993") || strings.Contains(err.Error(), "9.007199254740993") {
					t.Fatalf("%s: the error quotes the value: %v", tc.reason, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	values := map[string]cty.Value{
		"Empty": obj(map[string]cty.Value{"password": cty.StringVal("p")}),
		"Full": obj(map[string]cty.Value{
			"name": cty.StringVal("a"), "port_number": cty.NumberFloatVal(1.5), "enabled": cty.False,
			"password": cty.StringVal("p").Mark(configschema.SensitiveMark),
			"tags":     cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
			"zones":    cty.SetVal([]cty.Value{cty.StringVal("z")}),
			"extra":    cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal([]cty.Value{cty.True})}),
			"id":       cty.UnknownVal(cty.String),
			"rules":    cty.ListVal([]cty.Value{rule(cty.NumberIntVal(1)), rule(cty.UnknownVal(cty.Number))}),
		}),
		"UnknownCollections": obj(map[string]cty.Value{"password": cty.UnknownVal(cty.String), "zones": cty.UnknownVal(cty.Set(cty.String)), "rules": cty.UnknownVal(cty.List(ruleTy))}),
	}
	c := Converter{Block: testBlock()}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			pm, err := c.FromCty(v)
			if err != nil {
				t.Fatal(err)
			}
			back, err := c.ToCty(pm)
			if err != nil {
				t.Fatal(err)
			}
			if want := testBlock().MarkSensitive(v); !back.RawEquals(want) {
				t.Errorf("\nwant %#v\ngot  %#v", want, back)
			}
		})
	}
}

func TestCarrySecrets(t *testing.T) {
	s := configschema.SensitiveMark
	in := obj(map[string]cty.Value{"name": cty.StringVal("n").Mark(s), "zones": cty.SetVal([]cty.Value{cty.StringVal("z")}).Mark(s)})
	out := obj(map[string]cty.Value{"name": cty.StringVal("n"), "zones": cty.SetVal([]cty.Value{cty.StringVal("z")}), "id": cty.StringVal("i")})
	got := CarrySecrets(out, in)
	want := obj(map[string]cty.Value{"name": cty.StringVal("n").Mark(s), "zones": cty.SetVal([]cty.Value{cty.StringVal("z")}).Mark(s), "id": cty.StringVal("i")})
	if !got.RawEquals(want) {
		t.Errorf("\nwant %#v\ngot  %#v", want, got)
	}
	if plain := obj(nil); !CarrySecrets(out, plain).RawEquals(out) {
		t.Error("an input without secrets must leave out unchanged")
	}
}

// TestCarrySecretCopies: a provider that copies a secret input into
// another attribute (tags into tags_all) must not reveal it there; a long
// secret is found inside longer strings, a short one only whole.
func TestCarrySecretCopies(t *testing.T) {
	s := configschema.SensitiveMark
	in := obj(map[string]cty.Value{"name": cty.StringVal("hunter22").Mark(s), "id": cty.StringVal("ab").Mark(s)})
	out := obj(map[string]cty.Value{
		"name":  cty.StringVal("hunter22"),
		"id":    cty.StringVal("ab"),
		"zones": cty.SetVal([]cty.Value{cty.StringVal("prefix-hunter22"), cty.StringVal("abc")}),
	})
	got := CarrySecrets(out, in)
	zones := got.GetAttr("zones")
	if !zones.HasMark(s) && !zones.ContainsMarked() {
		t.Errorf("a set holding a copy of a secret is not secret: %#v", zones)
	}
	plain := obj(map[string]cty.Value{"zones": cty.SetVal([]cty.Value{cty.StringVal("abc")})})
	if got := CarrySecrets(plain, in).GetAttr("zones"); got.ContainsMarked() || got.IsMarked() {
		t.Errorf("a short secret (\"ab\") marked a string that only contains it: %#v", got)
	}
}

// FuzzPropertyToCty decodes arbitrary JSON into a PropertyMap and converts
// it against the test schema and a dynamic one: never a panic, and what
// converts survives a round trip.
func FuzzPropertyToCty(f *testing.F) {
	f.Add(`{"name":"a","portNumber":1,"rules":[{"fromPort":2,"cidrBlocks":["x"]}],"tags":{"a":"b"}}`)
	f.Add(`{"extra":{"a":[1,"x",{"b":null}]},"zones":["a","a"]}`)
	f.Add(`{"portNumber":"1e400"}`)
	f.Fuzz(func(t *testing.T, s string) {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) != nil {
			return
		}
		pm := resource.NewPropertyMapFromMap(m)
		for _, c := range []Converter{{Block: testBlock()}, {Block: dynamicBlock()}} {
			v, err := c.ToCty(pm)
			if err != nil {
				continue
			}
			out, err := c.FromCty(v)
			var pe *PathError
			if errors.As(err, &pe) {
				continue // numbers float64 cannot hold, read from strings
			}
			if err != nil {
				t.Fatalf("FromCty of a converted value: %v", err)
			}
			back, err := c.ToCty(out)
			if err != nil {
				t.Fatalf("ToCty of FromCty's result: %v", err)
			}
			// Numbers read from JSON carry float64 precision and come back
			// from decimal text, so compare by value, marks aside.
			b, w := marks.Strip(back), marks.Strip(v)
			if !b.RawEquals(w) && !b.Equals(w).RawEquals(cty.True) {
				t.Fatalf("round trip:\nwant %#v\ngot  %#v", v, back)
			}
		}
	})
}

func dynamicBlock() *configschema.Block {
	return &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"value": {Type: cty.DynamicPseudoType, Optional: true},
		"list":  {Type: cty.List(cty.DynamicPseudoType), Optional: true},
	}}
}
