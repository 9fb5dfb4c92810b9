package cfnschema

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

func TestResourceSchemaShapes(t *testing.T) {
	cases := map[string]struct {
		reason string
		rule   string
		attr   string
		want   string
	}{
		"string":      {"", "types", "name", "schema.StringAttribute"},
		"timestamp":   {"date-time keeps a custom type", "types", "created_at", "schema.StringAttribute timetypes.RFC3339Type"},
		"json":        {"", "types", "document", "schema.StringAttribute jsontypes.NormalizedType"},
		"object":      {"", "types", "settings", "schema.SingleNestedAttribute"},
		"map":         {"", "types", "labels", "schema.MapAttribute"},
		"list nested": {"", "arrays", "object_list", "schema.ListNestedAttribute"},
		"set nested":  {"", "arrays", "objects", "schema.SetNestedAttribute"},
		"list of set": {"collections of collections use element types", "arrays", "list_of_set_of_objects", "schema.ListAttribute"},
		"set of list": {"", "arrays", "set_of_arrays", "schema.SetAttribute"},
		"map nested":  {"", "maps", "objects", "schema.MapNestedAttribute"},
		"map of sets": {"", "maps", "sets_of_objects", "schema.MapAttribute"},
		"int":         {"", "validators", "between", "schema.Int64Attribute"},
		"float":       {"", "validators", "float_between", "schema.Float64Attribute"},
		"bool":        {"", "types", "flag", "schema.BoolAttribute"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rt, _ := loadRule(t, tc.rule)
			a := rt.ResourceSchema().Attributes[tc.attr]
			got := fmt.Sprintf("%T", a)
			if s, ok := a.(rschema.StringAttribute); ok && s.CustomType != nil {
				got += fmt.Sprintf(" %T", s.CustomType)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSchemasValidate(t *testing.T) {
	for _, rule := range []string{"types", "arrays", "validators", "defaults", "configurability", "pointers", "names", "refs", "recursion", "maps", "plural"} {
		t.Run(rule, func(t *testing.T) {
			rt, _ := loadRule(t, rule)
			if d := rt.ResourceSchema().ValidateImplementation(context.Background()); d.HasError() {
				t.Errorf("resource schema: %v", d)
			}
			if d := rt.DataSourceSchema().ValidateImplementation(context.Background()); d.HasError() {
				t.Errorf("data source schema: %v", d)
			}
		})
	}
}

func TestDataSourceSchema(t *testing.T) {
	rt, _ := loadRule(t, "configurability")
	ds := rt.DataSourceSchema()
	type flags struct{ Required, Optional, Computed, Sensitive bool }
	got := map[string]flags{}
	for name, a := range ds.Attributes {
		got[name] = flags{a.IsRequired(), a.IsOptional(), a.IsComputed(), a.IsSensitive()}
	}
	want := map[string]flags{
		"id":                   {Required: true},
		"arn":                  {Computed: true},
		"create_only_computed": {Computed: true},
		"description":          {Computed: true},
		"immutable":            {Computed: true},
		"immutable_optional":   {Computed: true},
		"name":                 {Computed: true},
		"optional":             {Computed: true},
		"read_only_required":   {Computed: true},
		"required_block":       {Computed: true},
		"secret":               {Computed: true},
		"status":               {Computed: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("singular data source: every attribute Computed, id Required: -want +got:\n%s", diff)
	}
	nested := ds.Attributes["required_block"].(dschema.SingleNestedAttribute).Attributes["must"]
	if !nested.IsComputed() || nested.IsRequired() {
		t.Errorf("nested data source attributes are Computed too")
	}
	if got := ds.Description; got != "Data Source schema for Test::Rules::Configurability" {
		t.Errorf("description %q", got)
	}
}

func TestPluralDataSourceSchema(t *testing.T) {
	c, diags := LoadFiles([]string{"../../shared/cfn-schemas/AWS_S3_Bucket.json"})
	if diags.HasErrors() || len(c.Types()) == 0 {
		t.Skipf("the shared schema corpus is not available: %v", diags)
	}
	rt := c.Type("AWS::S3::Bucket")
	ps, ok := rt.PluralDataSourceSchema()
	if !ok {
		t.Fatalf("no plural data source: %s", rt.PluralUnavailable)
	}
	got := map[string]string{}
	for name, a := range ps.Attributes {
		got[name] = fmt.Sprintf("%T computed=%v", a, a.IsComputed())
	}
	want := map[string]string{
		"id":  "schema.StringAttribute computed=true",
		"ids": "schema.SetAttribute computed=true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plural data source: id and ids: -want +got:\n%s", diff)
	}
	if diff := cmp.Diff("awscc_s3_buckets", rt.PluralName); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	if c.ByPluralName("awscc_s3_buckets") != rt {
		t.Errorf("ByPluralName does not find the type")
	}
}
