package lifecycle

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// woSchema has a write-only password beside a name.
var woSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"name":        {Type: cty.String, Required: true},
	"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
}}

// TestWriteOnly: the provider is sent the configured write-only value
// (its ephemeral mark removed, as every mark); an answer that keeps it is
// refused at plan with OpenTofu's error, and dropped from the new object
// at apply; an answer of null plans with no ephemeral mark left.
func TestWriteOnly(t *testing.T) {
	config := cty.ObjectVal(map[string]cty.Value{
		"name": str("n"), "password_wo": str("pw-SECRET").Mark(marks.Ephemeral),
	})
	nulled := func(v cty.Value) cty.Value {
		m := v.AsValueMap()
		m["password_wo"] = nullStr
		return cty.ObjectVal(m)
	}
	cases := map[string]struct {
		keep      bool
		wantError string
	}{
		"ProviderAnswersNull": {},
		"ProviderKeepsValue":  {keep: true, wantError: `returned an actual value for the write-only attribute ".password_wo"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{
				plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					planned := r.ProposedNewState
					if !tc.keep {
						planned = nulled(planned)
					}
					return providers.PlanResourceChangeResponse{PlannedState: planned}
				},
				apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					return providers.ApplyResourceChangeResponse{NewState: r.Config}
				},
			}
			tg := target(f)
			tg.Schema = woSchema
			got, ds := Plan(context.Background(), tg, cty.NullVal(woSchema.ImpliedType()), nil, config)
			if sent := f.planReq.Config.GetAttr("password_wo"); sent.IsMarked() || sent.AsString() != "pw-SECRET" {
				t.Fatalf("the provider was sent %#v, want the configured value unmarked", sent)
			}
			if tc.wantError != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.wantError) || strings.Contains(ds.Err().Error(), "SECRET") {
					t.Fatalf("diagnostics %v, want %q without the value", ds, tc.wantError)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if marks.IsEphemeral(got.Value) || !got.Value.GetAttr("password_wo").IsNull() {
				t.Fatalf("planned %#v, want a null write-only value with no ephemeral mark", got.Value)
			}
			// At apply a provider that keeps the value is reported and the
			// object is recorded without it.
			applied, ads := Apply(context.Background(), tg, got)
			if !ads.HasErrors() || !applied.Value.GetAttr("password_wo").IsNull() || applied.Value.GetAttr("name").AsString() != "n" {
				t.Fatalf("apply: %v, %#v: want the error and the object without the value", ads, applied.Value)
			}
		})
	}
}
