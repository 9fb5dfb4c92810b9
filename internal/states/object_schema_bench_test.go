package states

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// benchObject is an object of a schema with a sensitive attribute, one
// value marked by a sensitive variable: what apply records per instance.
func benchObject() (*configschema.Block, *Object) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"name":     {Type: cty.String, Optional: true},
		"password": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":     {Type: cty.Map(cty.String), Optional: true},
	}}
	v := schema.MarkSensitive(cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("i-0123456789"), "name": cty.StringVal("web").Mark(configschema.SensitiveMark),
		"password": cty.StringVal("p"), "tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "team": cty.StringVal("core")}),
	}))
	return schema, &Object{Value: v, Status: ObjectReady}
}

func BenchmarkEncodeObject(b *testing.B) {
	schema, obj := benchObject()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeObject(schema, obj, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeObjectUnmarkedPlain(b *testing.B) {
	schema, obj := benchObject()
	obj.Value, _ = obj.Value.UnmarkDeep()
	u, pvm := obj.Value.UnmarkDeepWithPaths()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeObjectUnmarked(schema, obj, u, pvm, 1); err != nil {
			b.Fatal(err)
		}
	}
}
