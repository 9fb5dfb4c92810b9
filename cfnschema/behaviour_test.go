package cfnschema

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validateString runs the string validators of attribute path in rule
// schema file on value and returns the error summaries.
func validateString(t *testing.T, vs []validator.String, value types.String) []string {
	t.Helper()
	var out []string
	for _, v := range vs {
		resp := &validator.StringResponse{}
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: value}, resp)
		for _, d := range resp.Diagnostics.Errors() {
			out = append(out, d.Summary())
		}
	}
	return out
}

func TestPatternValidators(t *testing.T) {
	rt, _ := loadRule(t, "validators")
	cases := map[string]struct {
		reason string
		path   string
		value  string
		want   []string
	}{
		"re2 match":          {"", "pattern", "abc", nil},
		"re2 mismatch":       {"", "pattern", "ABC", []string{"Invalid Attribute Value Match"}},
		"lookahead ok":       {"ECMA-262 lookahead is enforced, not dropped", "lookahead", "my:tag", nil},
		"lookahead refuse":   {"", "lookahead", "aws:tag", []string{"Invalid Attribute Value Match"}},
		"unicode ok":         {"", "unicode_escape", "plain ascii", nil},
		"unicode refuse":     {"", "unicode_escape", "tab\there", []string{"Invalid Attribute Value Match"}},
		"long repeat":        {"", "long_repeat", "arn:aws:s3:::bucket", nil},
		"long repeat refuse": {"", "long_repeat", "s3:::bucket", []string{"Invalid Attribute Value Match"}},
		"end anchor ok":      {"\\Z anchors at the end", "end_anchor", "abc", nil},
		"end anchor refuse":  {"", "end_anchor", "abc1", []string{"Invalid Attribute Value Match"}},
		"unanchored":         {"JSON Schema patterns search, they do not anchor", "pattern", "", []string{"Invalid Attribute Value Match"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := validateString(t, stringValidators(mustAttribute(t, rt, tc.path)), types.StringValue(tc.value))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestMapValidators(t *testing.T) {
	rt, _ := loadRule(t, "maps")
	cases := map[string]struct {
		reason string
		path   string
		value  map[string]string
		want   []string
	}{
		"keys ok":            {"", "two_patterns", map[string]string{"a1": "xx", "b1": "xxxx"}, nil},
		"key matches none":   {"every key must match some pattern", "two_patterns", map[string]string{"c": "x"}, []string{"Invalid Map Key"}},
		"value by its key":   {"a value is checked against the pattern its key matches", "two_patterns", map[string]string{"a1": "xxx"}, []string{"Invalid Attribute Value"}},
		"other pattern":      {"", "two_patterns", map[string]string{"b1": "xxx"}, nil},
		"match-all patterns": {"with a match-all pattern any key passes and a value needs one pattern", "env", map[string]string{"anything": "abcd"}, nil},
		"no pattern fits":    {"", "env", map[string]string{"x-long": "abcdefghi"}, []string{"Invalid Attribute Value"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			elems := map[string]attr.Value{}
			for k, v := range tc.value {
				elems[k] = types.StringValue(v)
			}
			m := types.MapValueMust(types.StringType, elems)
			var got []string
			for _, v := range mapValidators(mustAttribute(t, rt, tc.path)) {
				resp := &validator.MapResponse{}
				v.ValidateMap(context.Background(), validator.MapRequest{Path: path.Root("m"), ConfigValue: m}, resp)
				for _, d := range resp.Diagnostics.Errors() {
					got = append(got, d.Summary())
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestNotNull(t *testing.T) {
	cases := map[string]struct {
		reason string
		value  types.String
		want   []string
	}{
		"null":    {"a required member of a set parent must be set", types.StringNull(), []string{"Missing required argument"}},
		"set":     {"", types.StringValue("x"), nil},
		"unknown": {"unknown values are checked later", types.StringUnknown(), nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, validateString(t, []validator.String{notNull{}}, tc.value)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func strList(vs ...string) types.List {
	elems := make([]attr.Value, len(vs))
	for i, v := range vs {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

func TestMultiset(t *testing.T) {
	cases := map[string]struct {
		reason      string
		plan, state types.List
		want        types.List
	}{
		"reordered":  {"order-only change keeps the prior value", strList("b", "a"), strList("a", "b"), strList("a", "b")},
		"changed":    {"", strList("a", "c"), strList("a", "b"), strList("a", "c")},
		"duplicates": {"elements pair up one to one", strList("a", "a"), strList("a", "b"), strList("a", "a")},
		"grown":      {"", strList("a", "b", "c"), strList("b", "a"), strList("a", "b", "c")},
		"create":     {"no prior value", strList("b", "a"), types.ListNull(types.StringType), strList("b", "a")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := &planmodifier.ListResponse{PlanValue: tc.plan}
			multiset{elem: &Type{Kind: KindString}}.PlanModifyList(context.Background(), planmodifier.ListRequest{ConfigValue: tc.plan, PlanValue: tc.plan, StateValue: tc.state}, resp)
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("%s\nwant %s, got %s", tc.reason, tc.want, resp.PlanValue)
			}
		})
	}
}

// planRaw returns a non-null (or null) object value standing for a whole
// plan or state: the default modifier only asks whether it is null.
func planRaw(null bool) tftypes.Value {
	if null {
		return tftypes.NewValue(tftypes.Object{}, nil)
	}
	return tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{})
}

func TestDefaultModifier(t *testing.T) {
	rt, _ := loadRule(t, "defaults")
	mode := mustAttribute(t, rt, "mode").defaultValue
	cases := map[string]struct {
		reason  string
		config  types.String
		state   types.String
		create  bool
		destroy bool
		plan    types.String
		want    types.String
	}{
		"create":           {"left out on create → the default", types.StringNull(), types.StringNull(), true, false, types.StringUnknown(), types.StringValue("fast")},
		"configured":       {"a configured value is never touched", types.StringValue("slow"), types.StringValue("fast"), false, false, types.StringValue("slow"), types.StringValue("slow")},
		"state is default": {"the prior value equals the default → kept, no diff", types.StringNull(), types.StringValue("fast"), false, false, types.StringUnknown(), types.StringValue("fast")},
		"removed":          {"removing a configured value plans the default again", types.StringNull(), types.StringValue("slow"), false, false, types.StringValue("slow"), types.StringValue("fast")},
		"destroy":          {"", types.StringNull(), types.StringValue("slow"), false, true, types.StringNull(), types.StringNull()},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req := planmodifier.StringRequest{
				ConfigValue: tc.config, StateValue: tc.state, PlanValue: tc.plan,
				Plan:  tfsdk.Plan{Raw: planRaw(tc.destroy)},
				State: tfsdk.State{Raw: planRaw(tc.create)},
			}
			resp := &planmodifier.StringResponse{PlanValue: tc.plan}
			defaultModifier{mode}.PlanModifyString(context.Background(), req, resp)
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("%s\nwant %s, got %s", tc.reason, tc.want, resp.PlanValue)
			}
		})
	}
}

func TestDefaultModifierAgreement(t *testing.T) {
	rt, _ := loadRule(t, "defaults")
	config := mustAttribute(t, rt, "config")
	objType := attrTypeOf(config.Type).(types.ObjectType)
	obj := func(enabled bool, level int64) types.Object {
		return types.ObjectValueMust(objType.AttrTypes, map[string]attr.Value{"enabled": types.BoolValue(enabled), "level": types.Int64Value(level)})
	}
	empty := mustAttribute(t, rt, "empty_objects")
	setType := attrTypeOf(empty.Type).(types.SetType)
	cases := map[string]struct {
		reason string
		def    attr.Value
		state  attr.Value
		want   bool
	}{
		"object leaves agree": {"members the default leaves out match anything", config.defaultValue, obj(false, 7), true},
		"object leaf differs": {"", config.defaultValue, obj(true, 7), false},
		"empty set vs null":   {"Cloud Control reads [] back as absent", empty.defaultValue, types.SetNull(setType.ElemType), true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := defaultModifier{tc.def}.choose(context.Background(), tc.state, true).Equal(tc.state)
			if got != tc.want {
				t.Errorf("%s\nkeeps prior value = %v, want %v", tc.reason, got, tc.want)
			}
		})
	}
}
