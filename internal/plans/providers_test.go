package plans

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// TestPlanProviders: the graph's providers, the changes' and both
// states' are named once each, in address order, and a plan with no graph
// or states (one that errored early) still answers.
func TestPlanProviders(t *testing.T) {
	aws, random, tf := addrs.NewDefaultProvider("aws"), addrs.NewDefaultProvider("random"), addrs.NewBuiltInProvider("terraform")
	tls := addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "tls"}
	config := func(p addrs.Provider) addrs.AbsProviderConfig { return addrs.AbsProviderConfig{Provider: p} }
	inst := func(typ string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: "a"}.Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey)
	}
	stateWith := func(typ string, p addrs.Provider) *states.State {
		s := states.NewState()
		s.SetResourceInstanceCurrent(inst(typ), &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, config(p))
		return s
	}
	cases := map[string]struct {
		plan *Plan
		want []addrs.Provider
	}{
		"Empty": {plan: &Plan{}, want: []addrs.Provider{}},
		"AllSources": {
			plan: &Plan{
				Graph:        &Graph{Providers: []addrs.AbsProviderConfig{config(tf), config(random)}},
				Changes:      []*ResourceInstanceChange{{Addr: inst("random_id"), Provider: config(random)}, {Addr: inst("aws_vpc"), Provider: config(aws)}},
				PriorState:   stateWith("aws_vpc", aws),
				PrevRunState: stateWith("tls_cert", tls),
			},
			want: []addrs.Provider{tls, aws, random, tf},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.plan.Providers()
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
