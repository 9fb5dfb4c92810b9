package propval

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// BenchmarkRoundTrip measures FromCty then ToCty of a typical resource
// value, the work the adapter does per Check, Diff and Create.
func BenchmarkRoundTrip(b *testing.B) {
	c := Converter{Block: testBlock()}
	v := obj(map[string]cty.Value{
		"name": cty.StringVal("a"), "port_number": cty.NumberIntVal(443),
		"password": cty.StringVal("p").Mark(configschema.SensitiveMark),
		"tags":     cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		"rules":    cty.ListVal([]cty.Value{rule(cty.NumberIntVal(1)), rule(cty.NumberIntVal(2))}),
	})
	b.ReportAllocs()
	for b.Loop() {
		pm, err := c.FromCty(v)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.ToCty(pm); err != nil {
			b.Fatal(err)
		}
	}
}
