package awscc

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

const testSchemas = "testdata/schemas"

// newTestInstance returns an engine-side instance of the provider over the
// test schemas (two good types, one broken file).
func newTestInstance(t *testing.T) (providers.Interface, providers.GetProviderSchemaResponse) {
	t.Helper()
	p, err := New(testSchemas)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	s := inst.GetProviderSchema(context.Background())
	if s.Diagnostics.HasErrors() {
		t.Fatalf("schema: %v", s.Diagnostics)
	}
	return inst, s
}

// object builds a value of object type ty with the given attributes and
// every other attribute null.
func object(ty cty.Type, attrs map[string]cty.Value) cty.Value {
	vals := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, at := range ty.AttributeTypes() {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = cty.NullVal(at)
		}
	}
	return cty.ObjectVal(vals)
}

func TestNew(t *testing.T) {
	cases := map[string]struct {
		reason    string
		dir       string
		wantTypes []string
		wantErr   string
	}{
		"schemas": {
			reason:    "Good files load; a broken one is left out, not fatal.",
			dir:       testSchemas,
			wantTypes: []string{"awscc_test_gadget", "awscc_test_widget"},
		},
		"missing": {reason: "A directory that cannot be read is an error.", dir: "testdata/nope", wantErr: "reading CloudFormation schemas from testdata/nope"},
		"empty":   {reason: "A directory without a loadable schema is an error.", dir: "testdata/empty", wantErr: "no loadable CloudFormation schema"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := New(tc.dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s\nerror %v, want one containing %q", tc.reason, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rt := range p.Catalog().Types() {
				got = append(got, rt.TerraformName)
			}
			if diff := cmp.Diff(tc.wantTypes, got); diff != "" {
				t.Errorf("%s\ntypes (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestProviderSchema(t *testing.T) {
	_, s := newTestInstance(t)
	var names []string
	for n := range s.ResourceTypes {
		names = append(names, "resource "+n)
	}
	for n := range s.DataSources {
		names = append(names, "data "+n)
	}
	want := []string{"data awscc_test_gadget", "data awscc_test_widget", "data awscc_test_widgets", "resource awscc_test_gadget", "resource awscc_test_widget"}
	if diff := cmp.Diff(want, names, cmpSorted); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}

	cfg := s.Provider.Block
	for name, want := range map[string]configschema.Attribute{
		"region":     {Type: cty.String, Optional: true},
		"schemas":    {Type: cty.String, Optional: true},
		"secret_key": {Type: cty.String, Optional: true, Sensitive: true},
		"insecure":   {Type: cty.Bool, Optional: true},
	} {
		got := cfg.Attributes[name]
		if got == nil || !got.Type.Equals(want.Type) || got.Optional != want.Optional || got.Sensitive != want.Sensitive || got.Required || got.Computed {
			t.Errorf("provider attribute %s: %+v, want %+v", name, got, want)
		}
	}
	if ar := cfg.Attributes["assume_role"]; ar == nil || ar.NestedType == nil || !ar.NestedType.Attributes["role_arn"].Required {
		t.Errorf("assume_role: %+v, want a nested object with a required role_arn", ar)
	}

	warnings := summarize(s.Diagnostics)
	if diff := cmp.Diff([]diagSummary{{diags.Warning, "1 CloudFormation schema could not be loaded", ""}}, warnings); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if d := s.Diagnostics[0].Detail; !strings.Contains(d, "broken.json:1:50: error: Invalid schema JSON") {
		t.Errorf("the warning does not name the file and position:\n%s", d)
	}
}

func TestValidateResourceConfig(t *testing.T) {
	p, s := newTestInstance(t)
	ty := s.ResourceTypes["awscc_test_widget"].Block.ImpliedType()
	cases := map[string]struct {
		reason string
		config cty.Value
		want   []diagSummary
	}{
		"valid": {reason: "Values inside every constraint pass.", config: object(ty, map[string]cty.Value{"widget_name": cty.StringVal("w"), "size": cty.NumberIntVal(2)})},
		"not in enum": {reason: "The enum validator reports the attribute's path.", config: object(ty, map[string]cty.Value{"widget_name": cty.StringVal("w"), "size": cty.NumberIntVal(3)}),
			want: []diagSummary{{diags.Error, "Invalid Attribute Value Match", ".size"}}},
		"too short": {reason: "Length limits count characters.", config: object(ty, map[string]cty.Value{"widget_name": cty.StringVal("")}),
			want: []diagSummary{{diags.Error, "Invalid Attribute Value Length", ".widget_name"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "awscc_test_widget", Config: tc.config})
			if diff := cmp.Diff(tc.want, summarize(resp.Diagnostics)); diff != "" {
				t.Errorf("%s\ndiagnostics (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestPlanCreate plans a new widget: what the configuration sets is kept,
// read-only attributes are unknown, and the default is planned.
func TestPlanCreate(t *testing.T) {
	p, s := newTestInstance(t)
	ctx := context.Background()
	ty := s.ResourceTypes["awscc_test_widget"].Block.ImpliedType()
	config := object(ty, map[string]cty.Value{"widget_name": cty.StringVal("w"), "size": cty.NumberIntVal(2)})
	if ds := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: object(s.Provider.Block.ImpliedType(),
		map[string]cty.Value{"region": cty.StringVal("us-east-1"), "schemas": cty.StringVal(testSchemas)})}).Diagnostics; len(ds) > 0 {
		t.Fatalf("configure: %v", ds)
	}
	resp := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "awscc_test_widget",
		PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if len(resp.Diagnostics) > 0 {
		t.Fatalf("plan: %v", resp.Diagnostics)
	}
	got := resp.PlannedState.AsValueMap()
	want := map[string]cty.Value{
		"widget_name": cty.StringVal("w"),
		"size":        cty.NumberIntVal(2),
		"mode":        cty.StringVal("fast"),
		"arn":         cty.UnknownVal(cty.String),
		"widget_id":   cty.UnknownVal(cty.String),
		"id":          cty.UnknownVal(cty.String),
	}
	for name, w := range want {
		if !got[name].RawEquals(w) {
			t.Errorf("planned %s = %#v, want %#v", name, got[name], w)
		}
	}
}

// TestCorpus serves every type of the real corpus.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("loads all 1,489 schemas")
	}
	p, err := New(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := p.Factory()()
	s := inst.GetProviderSchema(context.Background())
	if s.Diagnostics.HasErrors() {
		t.Fatalf("schema: %v", s.Diagnostics)
	}
	plural := 0
	for _, rt := range p.Catalog().Types() {
		if rt.PluralName != "" {
			plural++
		}
	}
	if n := len(p.Catalog().Types()); len(s.ResourceTypes) != n || len(s.DataSources) != n+plural {
		t.Errorf("%d resources and %d data sources served; want %d and %d", len(s.ResourceTypes), len(s.DataSources), n, n+plural)
	}
	if len(s.ResourceTypes) < 1489 {
		t.Errorf("only %d resource types", len(s.ResourceTypes))
	}
	if b := s.ResourceTypes["awscc_logs_log_group"].Block; b == nil || b.Attributes["retention_in_days"] == nil {
		t.Errorf("awscc_logs_log_group missing or without retention_in_days")
	}
}
