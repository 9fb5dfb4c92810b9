package lifecycle

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// identityFake is the fake with identities (version 1, one name): the
// contract cases no real provider produces on demand. Real providers'
// identities are exercised by internal/providers/plugin's tests and the
// awscc_identity and provider_serve_opentofu scripts.
type identityFake struct {
	*fake
	upgraded []providers.UpgradeResourceIdentityRequest
}

var idType = cty.Object(map[string]cty.Type{"name": cty.String})

func (f *identityFake) GetResourceIdentitySchemas(context.Context) providers.GetResourceIdentitySchemasResponse {
	return providers.GetResourceIdentitySchemasResponse{IdentityTypes: map[string]providers.IdentitySchema{
		"test_thing": {Version: 1, Attributes: []providers.IdentityAttribute{{Name: "name", Type: cty.String, RequiredForImport: true}}},
	}}
}

func (f *identityFake) UpgradeResourceIdentity(_ context.Context, r providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	f.upgraded = append(f.upgraded, r)
	return providers.UpgradeResourceIdentityResponse{UpgradedIdentity: idOf("n")}
}

func idOf(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)})
}

// TestRefreshIdentity: what a read is sent and what the object keeps.
func TestRefreshIdentity(t *testing.T) {
	current := states.Identity{JSON: []byte(`{"name":"n"}`), SchemaVersion: 1}
	tests := map[string]struct {
		stored       states.Identity
		returned     cty.Value
		wantSent     cty.Value
		wantUpgraded bool
		wantKept     string
		wantErr      string
	}{
		"none stored, one returned":   {returned: idOf("n"), wantSent: cty.NilVal, wantKept: `{"name":"n"}`},
		"stored is sent and kept":     {stored: current, returned: idOf("n"), wantSent: idOf("n"), wantKept: `{"name":"n"}`},
		"none returned keeps it":      {stored: current, returned: cty.NilVal, wantSent: idOf("n"), wantKept: `{"name":"n"}`},
		"older version is upgraded":   {stored: states.Identity{JSON: []byte(`{"nm":"n"}`)}, returned: idOf("n"), wantSent: idOf("n"), wantUpgraded: true, wantKept: `{"name":"n"}`},
		"a changed identity":          {stored: current, returned: idOf("other"), wantSent: idOf("n"), wantErr: "Unexpected Identity Change"},
		"an identity of another type": {returned: cty.ObjectVal(map[string]cty.Value{"nope": cty.True}), wantErr: "does not conform to the identity schema"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var sent cty.Value
			f := &identityFake{fake: &fake{read: func(r providers.ReadResourceRequest) providers.ReadResourceResponse {
				sent = r.CurrentIdentity
				return providers.ReadResourceResponse{NewState: r.PriorState, Private: r.Private, NewIdentity: tc.returned}
			}}}
			tg := target(f.fake)
			tg.Provider = f
			prior := &states.Object{Value: obj(str("i"), str("n"), nullStr, nullNum), Identity: tc.stored}
			got, ds := Refresh(context.Background(), tg, prior)
			if tc.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want %q", ds.Err(), tc.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if !(sent == cty.NilVal && tc.wantSent == cty.NilVal) && !sent.RawEquals(tc.wantSent) {
				t.Errorf("sent %#v, want %#v", sent, tc.wantSent)
			}
			if (len(f.upgraded) > 0) != tc.wantUpgraded {
				t.Errorf("upgrades %v, want upgraded %v", f.upgraded, tc.wantUpgraded)
			}
			if string(got.Identity.JSON) != tc.wantKept || got.Identity.SchemaVersion != 1 {
				t.Errorf("kept %s (version %d), want %s (version 1)", got.Identity.JSON, got.Identity.SchemaVersion, tc.wantKept)
			}
		})
	}
}

// TestApplyIdentity: an update sends the stored identity as the planned
// one and must not change it; a create takes what the provider returns.
func TestApplyIdentity(t *testing.T) {
	stored := states.Identity{JSON: []byte(`{"name":"n"}`), SchemaVersion: 1}
	for name, tc := range map[string]struct {
		prior    cty.Value
		returned cty.Value
		wantSent bool
		wantErr  string
	}{
		"create":            {prior: cty.NullVal(schema.ImpliedType()), returned: idOf("n")},
		"update":            {prior: obj(str("i"), str("n"), nullStr, nullNum), returned: idOf("n"), wantSent: true},
		"update changes it": {prior: obj(str("i"), str("n"), nullStr, nullNum), returned: idOf("x"), wantSent: true, wantErr: "Unexpected Identity Change"},
	} {
		t.Run(name, func(t *testing.T) {
			f := &identityFake{fake: &fake{
				plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					ps := r.ProposedNewState
					if r.PriorState.IsNull() {
						ps = obj(unkStr, str("n"), nullStr, nullNum)
					}
					return providers.PlanResourceChangeResponse{PlannedState: ps}
				},
				apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					return providers.ApplyResourceChangeResponse{NewState: obj(str("i"), str("n"), nullStr, nullNum), NewIdentity: tc.returned}
				},
			}}
			tg := target(f.fake)
			tg.Provider, tg.Identity = f, stored
			p, ds := Plan(context.Background(), tg, tc.prior, nil, obj(nullStr, str("n"), nullStr, nullNum))
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if sent := f.planReq.PriorIdentity != cty.NilVal; sent != tc.wantSent {
				t.Errorf("plan sent a prior identity: %v, want %v", sent, tc.wantSent)
			}
			a, ds := Apply(context.Background(), tg, p)
			if sent := f.applyReq.PlannedIdentity != cty.NilVal; sent != tc.wantSent {
				t.Errorf("apply sent a planned identity: %v, want %v", sent, tc.wantSent)
			}
			if tc.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want %q", ds.Err(), tc.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if string(a.Identity.JSON) != `{"name":"n"}` {
				t.Errorf("identity %s", a.Identity.JSON)
			}
		})
	}
}

// TestIdentityBehindAWrapper: a provider seen through a wrapper that
// offers no identity schemas (cairn test's lazy start) may still return
// identities from its reads; the object is kept without one, not refused.
func TestIdentityBehindAWrapper(t *testing.T) {
	f := &fake{read: func(r providers.ReadResourceRequest) providers.ReadResourceResponse {
		return providers.ReadResourceResponse{NewState: r.PriorState, Private: r.Private, NewIdentity: idOf("n")}
	}}
	prior := &states.Object{Value: obj(str("i"), str("n"), nullStr, nullNum)}
	got, ds := Refresh(context.Background(), target(f), prior)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if !got.Identity.IsNone() {
		t.Errorf("kept identity %s, want none", got.Identity.JSON)
	}
}
