package cfnschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAttributeNamesPerLevel(t *testing.T) {
	rt, _ := loadRule(t, "names")
	cases := map[string]struct {
		reason  string
		pointer string
		want    string
	}{
		"top-level Id":       {"renamed to <resource>_id; the natural FlowLogId keeps flow_log_id", "/properties/Id", "flow_log_id_2"},
		"natural name":       {"a property whose name was not renamed wins a collision", "/properties/FlowLogId", "flow_log_id"},
		"top-level Provider": {"renamed to provider_name", "/properties/Provider", "provider_name"},
		"acronym":            {"", "/properties/VPCId", "vpc_id"},
		"digits":             {"", "/properties/Ipv6Address", "ipv_6_address"},
		"replacement":        {"", "/properties/CloudWatchLogs", "cloudwatch_logs"},
		"nested Id":          {"nested Id stays id (awscc's flat map refuses this resource)", "/properties/Nested/Id", "id"},
		"nested Provider":    {"nested Provider stays provider", "/properties/Nested/Provider", "provider"},
		"same name, level a": {"SMSMessage and SmsMessage live at different levels: both sms_message", "/properties/Nested/SMSMessage", "sms_message"},
		"same name, level b": {"", "/properties/Other/SmsMessage", "sms_message"},
		"same level, first":  {"at one level the first in byte order keeps the name", "/properties/Other/Value", "value"},
		"same level, second": {"and the other is suffixed", "/properties/Other/value", "value_2"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := rt.AttributeForPointer(tc.pointer)
			if a == nil {
				t.Fatalf("no attribute for %s", tc.pointer)
			}
			if diff := cmp.Diff(tc.want, a.Name); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestTranslationRecords(t *testing.T) {
	rt, _ := loadRule(t, "pointers")
	a := mustAttribute(t, rt, "rules[*].password")
	got := struct {
		CFNName, Pointer, Path string
		ReadOnly, WriteOnly    bool
	}{a.CFNName, a.Pointer, a.Path.String(), a.ReadOnly, a.WriteOnly}
	want := struct {
		CFNName, Pointer, Path string
		ReadOnly, WriteOnly    bool
	}{"Password", "/properties/Rules/*/Password", "rules[*].password", false, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a record ties the CFN pointer to the Terraform path: -want +got:\n%s", diff)
	}
	if rt.AttributeForPointer("/properties/Rules/*/Password") != a {
		t.Errorf("AttributeForPointer does not return the record Attribute returns")
	}
}

func TestSuppression(t *testing.T) {
	cases := map[string]struct {
		reason string
		rule   string
		want   []Suppression
	}{
		"meta-argument": {"a top-level count suppresses the type with a reason", "meta_argument", []Suppression{{
			TypeName: "Test::Rules::Counter", TerraformName: "test_rules_counter",
			Reason: `top-level property Count maps to "count", a name Terraform reserves in resource blocks`,
		}}},
		"ordinary": {"ordinary types are not suppressed", "types", nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, diags := LoadFiles([]string{"testdata/rules/" + tc.rule + ".json"})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tc.want, c.Suppressed()); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if len(tc.want) > 0 && len(c.Types()) != 0 {
				t.Errorf("a suppressed type must not be served, Types() = %d", len(c.Types()))
			}
		})
	}
}

func TestPluralAvailability(t *testing.T) {
	cases := map[string]struct {
		reason      string
		rule        string
		wantName    string
		wantReason  string
		wantTimeout string
	}{
		"no list handler":      {"", "types", "", "the schema has no list handler", "0s"},
		"needs resource model": {"a list handler requiring properties cannot be called without a model", "plural", "", "the list handler needs a resource model (its handlerSchema requires properties)", "30m0s"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rt, _ := loadRule(t, tc.rule)
			got := []string{rt.PluralName, rt.PluralUnavailable, rt.Handlers["create"].Timeout.String()}
			want := []string{tc.wantName, tc.wantReason, tc.wantTimeout}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if _, ok := rt.PluralDataSourceSchema(); ok {
				t.Errorf("PluralDataSourceSchema ok for a type without plural data source")
			}
		})
	}
}

func TestAttributesLookup(t *testing.T) {
	rt, _ := loadRule(t, "names")
	nested := rt.Attributes.ByName("nested")
	cases := map[string]struct {
		reason string
		got    *Attribute
		want   string
	}{
		"by name":        {"", rt.Attributes.ByName("vpc_id"), "/properties/VPCId"},
		"by CFN name":    {"", rt.Attributes.ByCFNName("VPCId"), "/properties/VPCId"},
		"renamed top Id": {"the top-level Id is found under its CFN name", rt.Attributes.ByCFNName("Id"), "/properties/Id"},
		"nested by CFN":  {"each object level has its own names", nested.Type.Attributes.ByCFNName("Id"), "/properties/Nested/Id"},
		"nested by name": {"", nested.Type.Attributes.ByName("id"), "/properties/Nested/Id"},
		"synthetic id":   {"the top-level id has no CFN pointer", rt.Attributes.ByName("id"), ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.got == nil {
				t.Fatalf("%s: not found", tc.reason)
			}
			if diff := cmp.Diff(tc.want, tc.got.Pointer); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	if rt.Attributes.ByName("nope") != nil || rt.Attributes.ByCFNName("Nope") != nil {
		t.Errorf("unknown names must give nil")
	}
}
