package render

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// TestHumanMarks: terraform_data's output is marked wherever its input
// is, part for part; other resource types, unmarked inputs and unknown
// outputs are left alone, except that an output sensitive before a change
// stays sensitive while unknown.
func TestHumanMarks(t *testing.T) {
	schema, _ := builtinSchemas().ResourceTypeSchema(builtin.TerraformProviderAddr, addrs.ManagedResourceMode, "terraform_data")
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
		"another type": {
			reason: "only the types in the table mirror",
			after:  data(secret, str("hunter2")), typ: "other_data",
			want: data(secret, str("hunter2")),
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
			_, got := humanChangeMarks(before, tc.after, schema, builtin.TerraformProviderAddr, tc.typ)
			if !got.RawEquals(tc.want) {
				t.Errorf("%s\ngot  %#v\nwant %#v", tc.reason, got, tc.want)
			}
		})
	}
}
