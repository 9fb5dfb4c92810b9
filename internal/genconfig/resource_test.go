package genconfig

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// TestResource checks the layout Terraform 1.5.7's -generate-config-out
// writes: arguments in name order and aligned, computed-only attributes
// left out, sensitive ones as null with a comment, nested attributes as
// objects, nested blocks one per element with map keys as labels.
func TestResource(t *testing.T) {
	obj := &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{
		"a":  {Type: cty.String, Optional: true},
		"id": {Type: cty.String, Computed: true},
	}}
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":       {Type: cty.String, Computed: true},
			"name":     {Type: cty.String, Required: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true, Computed: true},
			"unset":    {Type: cty.Number, Optional: true},
			"nested":   {NestedType: obj, Optional: true},
			"several":  {NestedType: &configschema.Object{Nesting: configschema.NestingMap, Attributes: obj.Attributes}, Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rule": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"port": {Type: cty.Number, Required: true},
			}}},
			"named": {Nesting: configschema.NestingMap, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"on": {Type: cty.Bool, Optional: true},
			}}},
		},
	}
	inner := func(a string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal(a), "id": cty.StringVal("x")})
	}
	val := cty.ObjectVal(map[string]cty.Value{
		"id":       cty.StringVal("i-1"),
		"name":     cty.StringVal("web"),
		"password": cty.StringVal("hunter2"),
		"tags":     cty.MapVal(map[string]cty.Value{"team": cty.StringVal("a")}),
		"unset":    cty.NullVal(cty.Number),
		"nested":   inner("one"),
		"several":  cty.MapVal(map[string]cty.Value{"k": inner("two")}),
		"rule":     cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)})}),
		"named":    cty.MapVal(map[string]cty.Value{"n": cty.ObjectVal(map[string]cty.Value{"on": cty.True})}),
	})
	got := Resource("x_thing", "web", "x.west", schema, val)
	want := `resource "x_thing" "web" {
  provider = x.west
  name     = "web"
  nested = {
    a = "one"
  }
  password = null # sensitive
  several = {
    k = {
      a = "two"
    }
  }
  tags = {
    team = "a"
  }
  unset = null
  named "n" {
    on = true
  }
  rule {
    port = 80
  }
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestResourceNull writes every argument as null for an object with no
// value, as for terraform_data imported by id.
func TestResourceNull(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
	}}
	got := Resource("terraform_data", "a", "", schema, cty.NullVal(schema.ImpliedType()))
	want := "resource \"terraform_data\" \"a\" {\n  input            = null\n  triggers_replace = null\n}\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
