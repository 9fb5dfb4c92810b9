package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/cairn-iac/cairn/internal/configschema"
)

func schema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"bucket_name": {Type: cty.String, Optional: true},
			"arn":         {Type: cty.String, Computed: true},
			"tags":        {Type: cty.Map(cty.String), Optional: true},
			"zones":       {Type: cty.Set(cty.String), Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rules": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"port": {Type: cty.Number, Optional: true}},
			}},
		},
	}
}

var ruleTy = cty.Object(map[string]cty.Type{"port": cty.Number})

func val(attrs map[string]cty.Value) cty.Value {
	full := map[string]cty.Value{}
	for n, ty := range schema().ImpliedType().AttributeTypes() {
		full[n] = cty.NullVal(ty)
	}
	for k, v := range attrs {
		full[k] = v
	}
	return cty.ObjectVal(full)
}

func rules(ports ...int64) cty.Value {
	var out []cty.Value
	for _, p := range ports {
		out = append(out, cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(p)}))
	}
	if len(out) == 0 {
		return cty.ListValEmpty(ruleTy)
	}
	return cty.ListVal(out)
}

func kinds(m map[string]pulumirpc.PropertyDiff_Kind) map[string]*pulumirpc.PropertyDiff {
	out := map[string]*pulumirpc.PropertyDiff{}
	for k, v := range m {
		out[k] = &pulumirpc.PropertyDiff{Kind: v}
	}
	return out
}

func TestResponse(t *testing.T) {
	base := val(map[string]cty.Value{"bucket_name": cty.StringVal("a"), "arn": cty.StringVal("arn:a"), "rules": rules(80)})
	all := []string{"arn", "bucketName", "rules", "tags", "zones"}
	cases := map[string]struct {
		reason string
		in     Input
		want   *pulumirpc.DiffResponse
	}{
		"NoChange": {
			reason: "equal values: DIFF_NONE, everything stable",
			in:     Input{Prior: base, Planned: base},
			want:   &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE, Stables: all, DetailedDiff: kinds(nil), HasDetailedDiff: true},
		},
		"InPlace": {
			reason: "a changed attribute is an UPDATE keyed by its camelCase name",
			in:     Input{Prior: base, Planned: val(map[string]cty.Value{"bucket_name": cty.StringVal("b"), "arn": cty.StringVal("arn:a"), "rules": rules(80)})},
			want: &pulumirpc.DiffResponse{
				Changes: pulumirpc.DiffResponse_DIFF_SOME, Diffs: []string{"bucketName"}, Stables: []string{"arn", "rules", "tags", "zones"},
				DetailedDiff: kinds(map[string]pulumirpc.PropertyDiff_Kind{"bucketName": pulumirpc.PropertyDiff_UPDATE}), HasDetailedDiff: true,
			},
		},
		"Replace": {
			reason: "a requires-replace path gives the _REPLACE kind, replaces and deleteBeforeReplace",
			in: Input{
				Prior: base, Planned: val(map[string]cty.Value{"bucket_name": cty.StringVal("b"), "arn": cty.UnknownVal(cty.String), "rules": rules(80)}),
				RequiresReplace: []cty.Path{cty.GetAttrPath("bucket_name")}, DeleteBeforeReplace: true,
			},
			want: &pulumirpc.DiffResponse{
				Changes: pulumirpc.DiffResponse_DIFF_SOME, Replaces: []string{"bucketName"}, Diffs: []string{"arn", "bucketName"},
				Stables: []string{"rules", "tags", "zones"}, DeleteBeforeReplace: true, HasDetailedDiff: true,
				DetailedDiff: kinds(map[string]pulumirpc.PropertyDiff_Kind{
					"bucketName": pulumirpc.PropertyDiff_UPDATE_REPLACE, "arn": pulumirpc.PropertyDiff_UPDATE,
				}),
			},
		},
		"NestedPaths": {
			reason: "list elements are compared one by one; adds and deletes by index; replace below a path",
			in: Input{
				Prior:           val(map[string]cty.Value{"rules": rules(80, 443)}),
				Planned:         val(map[string]cty.Value{"rules": rules(8080)}),
				RequiresReplace: []cty.Path{cty.GetAttrPath("rules").IndexInt(0).GetAttr("port")},
			},
			want: &pulumirpc.DiffResponse{
				Changes: pulumirpc.DiffResponse_DIFF_SOME, Replaces: []string{"rules"}, Diffs: []string{"rules"},
				Stables: []string{"arn", "bucketName", "tags", "zones"}, HasDetailedDiff: true,
				DetailedDiff: kinds(map[string]pulumirpc.PropertyDiff_Kind{
					"rules[0].port": pulumirpc.PropertyDiff_UPDATE_REPLACE, "rules[1]": pulumirpc.PropertyDiff_DELETE,
				}),
			},
		},
		"AddDeleteMapSet": {
			reason: "map keys add and delete; sets compare whole; null to value is ADD, value to null DELETE",
			in: Input{
				Prior:               val(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b c": cty.StringVal("2")}), "zones": cty.SetVal([]cty.Value{cty.StringVal("x")}), "bucket_name": cty.StringVal("n")}),
				Planned:             val(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "d": cty.StringVal("4")}), "zones": cty.SetVal([]cty.Value{cty.StringVal("y")}), "arn": cty.StringVal("arn")}),
				DeleteBeforeReplace: true,
			},
			want: &pulumirpc.DiffResponse{
				Changes: pulumirpc.DiffResponse_DIFF_SOME, Diffs: []string{"arn", "bucketName", "tags", "zones"},
				Stables: []string{"rules"}, HasDetailedDiff: true,
				DetailedDiff: kinds(map[string]pulumirpc.PropertyDiff_Kind{
					"arn": pulumirpc.PropertyDiff_ADD, "bucketName": pulumirpc.PropertyDiff_DELETE,
					`tags["b c"]`: pulumirpc.PropertyDiff_DELETE, "tags.d": pulumirpc.PropertyDiff_ADD,
					"zones": pulumirpc.PropertyDiff_UPDATE,
				}),
			},
		},
		"UnknownSetElement": {
			reason: "an unknown inside a compared-whole value counts as a change",
			in: Input{
				Prior:   val(map[string]cty.Value{"zones": cty.SetVal([]cty.Value{cty.StringVal("x")})}),
				Planned: val(map[string]cty.Value{"zones": cty.SetVal([]cty.Value{cty.UnknownVal(cty.String)})}),
			},
			want: &pulumirpc.DiffResponse{
				Changes: pulumirpc.DiffResponse_DIFF_SOME, Diffs: []string{"zones"},
				Stables: []string{"arn", "bucketName", "rules", "tags"}, HasDetailedDiff: true,
				DetailedDiff: kinds(map[string]pulumirpc.PropertyDiff_Kind{"zones": pulumirpc.PropertyDiff_UPDATE}),
			},
		},
		"SensitiveIgnored": {
			reason: "marks do not make a change",
			in:     Input{Prior: base, Planned: base.Mark("sensitive")},
			want:   &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE, Stables: all, DetailedDiff: kinds(nil), HasDetailedDiff: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.in.Schema = schema()
			got, err := Response(tc.in)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestResponseWrongType(t *testing.T) {
	if _, err := Response(Input{Schema: schema(), Prior: cty.EmptyObjectVal, Planned: cty.EmptyObjectVal}); err == nil {
		t.Error("want an error for values not of the schema's type")
	}
}

// TestResponseDynamic: a dynamic attribute's value has its own type (a
// string in terraform_data's input), and is compared whole.
func TestResponseDynamic(t *testing.T) {
	sch := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"input": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	prior := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("a")})
	planned := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("b")})
	resp, err := Response(Input{Schema: sch, Prior: prior, Planned: planned})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Changes != pulumirpc.DiffResponse_DIFF_SOME || resp.DetailedDiff["input"].GetKind() != pulumirpc.PropertyDiff_UPDATE {
		t.Errorf("diff %v", resp)
	}
}
