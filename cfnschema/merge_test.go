package cfnschema

import (
	"testing"
)

func TestMergeOverlayWins(t *testing.T) {
	doc := func(typeName, desc string) Source {
		return Source{Name: typeName + ".json", Data: []byte(`{"typeName":"` + typeName + `","description":"` + desc + `",
			"properties":{"Name":{"type":"string"}},"primaryIdentifier":["/properties/Name"],
			"handlers":{"list":{"permissions":[]}}}`)}
	}
	base, ds := LoadSources([]Source{doc("AWS::Demo::Thing", "built in"), doc("AWS::Demo::Other", "built in")})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	overlay, ds := LoadSources([]Source{doc("AWS::Demo::Thing", "newer"), doc("Initech::TPS::Report", "private")})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	merged, ds := Merge(base, overlay)
	if len(ds) != 0 {
		t.Fatalf("unexpected diagnostics: %v", ds)
	}
	want := map[string]string{
		"awscc_demo_thing":   "newer",
		"awscc_demo_other":   "built in",
		"initech_tps_report": "private",
	}
	if got := len(merged.Types()); got != len(want) {
		t.Fatalf("merged has %d types, want %d", got, len(want))
	}
	for name, desc := range want {
		rt := merged.ByTerraformName(name)
		if rt == nil || rt.Description != desc {
			t.Errorf("%s: got %+v, want description %q", name, rt, desc)
		}
		if rt != nil && merged.ByPluralName(rt.PluralName) != rt {
			t.Errorf("%s: plural %q not indexed", name, rt.PluralName)
		}
	}
	if base.ByTerraformName("awscc_demo_thing").Description != "built in" {
		t.Error("Merge changed its base catalog")
	}
}

func TestTerraformNames(t *testing.T) {
	for _, tc := range []struct{ cfn, res, plural string }{
		{"AWS::S3::Bucket", "awscc_s3_bucket", "awscc_s3_buckets"},
		{"AWS::EC2::DHCPOptions", "awscc_ec2_dhcp_options", "awscc_ec2_dhcp_options_plural"},
		{"Initech::TPS::Report", "initech_tps_report", "initech_tps_reports"},
	} {
		res, plural, err := TerraformNames(tc.cfn)
		if err != nil || res != tc.res || plural != tc.plural {
			t.Errorf("TerraformNames(%q) = %q, %q, %v; want %q, %q", tc.cfn, res, plural, err, tc.res, tc.plural)
		}
	}
	if _, _, err := TerraformNames("AWS::S3"); err == nil {
		t.Error("a two-part name was accepted")
	}
}
