package plans

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// TestCanApplyRefreshOnly checks which refreshes make a refresh-only plan
// applyable: any change to what the state file records of an object but
// its identity, which the apply writes without asking (OpenTofu 1.12.6).
func TestCanApplyRefreshOnly(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "cairntest_thing", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	provider := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewDefaultProvider("cairntest")}
	stateOf := func(obj states.ObjectSrc) *states.State {
		s := states.NewState()
		s.SetResourceInstanceCurrent(addr, &obj, provider)
		return s
	}
	attrs := []byte(`{"name":"a"}`)
	v0 := states.Identity{JSON: []byte(`{"thing_name":"a"}`)}
	v1 := states.Identity{JSON: []byte(`{"name":"a"}`), SchemaVersion: 1}
	cases := map[string]struct {
		reason      string
		prev, prior states.ObjectSrc
		want        bool
	}{
		"unchanged": {reason: "nothing to write",
			prev: states.ObjectSrc{AttrsJSON: attrs, Identity: v1}, prior: states.ObjectSrc{AttrsJSON: attrs, Identity: v1}},
		"attributes": {reason: "refresh found drift",
			prev: states.ObjectSrc{AttrsJSON: attrs, Identity: v1}, prior: states.ObjectSrc{AttrsJSON: []byte(`{"name":"b"}`), Identity: v1}, want: true},
		"identity upgraded": {reason: "an upgraded identity alone is not drift to approve",
			prev: states.ObjectSrc{AttrsJSON: attrs, Identity: v0}, prior: states.ObjectSrc{AttrsJSON: attrs, Identity: v1}},
		"identity given": {reason: "an identity given to an object stored without is not drift to approve",
			prev: states.ObjectSrc{AttrsJSON: attrs}, prior: states.ObjectSrc{AttrsJSON: attrs, Identity: v1}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := &Plan{Mode: RefreshOnlyMode, PrevRunState: stateOf(tc.prev), PriorState: stateOf(tc.prior)}
			if got := p.CanApply(); got != tc.want {
				t.Errorf("%s: CanApply() = %v, want %v", tc.reason, got, tc.want)
			}
		})
	}
}
