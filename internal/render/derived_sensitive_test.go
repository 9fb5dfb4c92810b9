package render

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// TestHumanMarks: terraform_data's output is marked wherever its input
// is, part for part; types that declare no copy, unmarked inputs and
// unknown outputs are left alone, except that an output sensitive before a
// change stays sensitive while unknown.
func TestHumanMarks(t *testing.T) {
	tdSchema, _ := builtinSchemas().ResourceTypeSchema(builtin.TerraformProviderAddr, addrs.ManagedResourceMode, "terraform_data")
	noCopies := &configschema.Block{Attributes: tdSchema.Attributes}
	secret := str("hunter2").Mark(configschema.SensitiveMark)
	data := func(input, output cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": str("i"), "input": input, "output": output, "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	}
	pair := func(pass cty.Value) cty.Value { return obj(map[string]cty.Value{"pass": pass, "user": str("u")}) }
	unknown := cty.UnknownVal(cty.DynamicPseudoType)
	tests := map[string]struct {
		reason        string
		before, after cty.Value
		typ           string
		want          cty.Value
	}{
		"whole": {
			reason: "a sensitive input makes the output sensitive",
			after:  data(secret, str("hunter2")), typ: "terraform_data",
			want: data(secret, secret),
		},
		"part": {
			reason: "a sensitive part of the input makes the same part of the output sensitive",
			after:  data(pair(secret), pair(str("hunter2"))), typ: "terraform_data",
			want: data(pair(secret), pair(secret)),
		},
		"nothing sensitive": {
			after: data(str("x"), str("x")), typ: "terraform_data",
			want: data(str("x"), str("x")),
		},
		"a number": {
			reason: "a declared copy is marked whatever its type",
			after:  data(cty.NumberIntVal(42).Mark(configschema.SensitiveMark), cty.NumberIntVal(42)), typ: "terraform_data",
			want: data(cty.NumberIntVal(42).Mark(configschema.SensitiveMark), cty.NumberIntVal(42).Mark(configschema.SensitiveMark)),
		},
		"another type": {
			reason: "only declared copies copy values other than strings",
			after:  data(cty.NumberIntVal(42).Mark(configschema.SensitiveMark), cty.NumberIntVal(42)), typ: "other_data",
			want: data(cty.NumberIntVal(42).Mark(configschema.SensitiveMark), cty.NumberIntVal(42)),
		},
		"another type, a string": {
			reason: "a string that copies a secret of the object is hidden, declared or not",
			after:  data(secret, str("hunter2")), typ: "other_data",
			want: data(secret, secret),
		},
		"unknown output": {
			reason: "an output not known yet reads (known after apply)",
			after:  data(secret, unknown), typ: "terraform_data",
			want: data(secret, unknown),
		},
		"unknown output after a sensitive one": {
			reason: "the plan must not say the output stops being sensitive",
			before: data(secret, str("hunter2")), after: data(secret, unknown), typ: "terraform_data",
			want: data(secret, unknown.Mark(configschema.SensitiveMark)),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			before := tc.before
			if before == cty.NilVal {
				before = cty.NullVal(tc.after.Type())
			}
			schema := tdSchema
			if tc.typ != "terraform_data" {
				schema = noCopies
			}
			_, got := humanChangeMarks(before, tc.after, schema, marks.Secrets{})
			if !got.RawEquals(tc.want) {
				t.Errorf("%s\ngot  %#v\nwant %#v", tc.reason, got, tc.want)
			}
		})
	}
}

// TestHumanMarksDerived: attributes a schema masks, and strings that copy
// a secret of the same object (an id equal to a sensitive name, an ARN
// around it), read as sensitive; the rest of the object does not.
func TestHumanMarksDerived(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":    {Type: cty.String, Computed: true},
		"arn":   {Type: cty.String, Computed: true},
		"name":  {Type: cty.String, Optional: true},
		"token": {Type: cty.String, Optional: true, Masked: true},
		"class": {Type: cty.String, Optional: true},
	}}
	sens := func(v cty.Value) cty.Value { return v.Mark(configschema.SensitiveMark) }
	val := func(id, arn, name, token, class cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "arn": arn, "name": name, "token": token, "class": class})
	}
	name, arn := str("app-hunter2"), str("arn:aws:logs:us-east-1:1:log-group:app-hunter2:*")
	tests := map[string]struct {
		reason string
		v      cty.Value
		want   cty.Value
	}{
		"derived from a sensitive name": {
			reason: "the id equals the sensitive name and the ARN contains it",
			v:      val(name, arn, sens(name), str("tok"), str("STANDARD")),
			want:   val(sens(name), sens(arn), sens(name), sens(str("tok")), str("STANDARD")),
		},
		"nothing sensitive": {
			reason: "only the masked attribute is hidden",
			v:      val(name, arn, name, str("tok"), str("STANDARD")),
			want:   val(name, arn, name, sens(str("tok")), str("STANDARD")),
		},
		"a masked secret": {
			reason: "a masked value is a secret of the object too",
			v:      val(str("i"), str("arn:token-value-1"), name, str("token-value-1"), str("STANDARD")),
			want:   val(str("i"), sens(str("arn:token-value-1")), name, sens(str("token-value-1")), str("STANDARD")),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := humanMarks(tc.v, schema, marks.Secrets{}); !got.RawEquals(tc.want) {
				t.Errorf("%s\ngot  %#v\nwant %#v", tc.reason, got, tc.want)
			}
		})
	}
}
