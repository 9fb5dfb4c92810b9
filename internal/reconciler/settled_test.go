package reconciler

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/zclconf/go-cty/cty"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/providers"
)

// driftingProvider is the test provider whose objects may change behind
// the controller's back: ReadResource returns them with size set to
// drift when it is not zero.
type driftingProvider struct {
	*enginetest.TestProvider
	drift atomic.Int64
}

func (p *driftingProvider) ReadResource(ctx context.Context, r providers.ReadResourceRequest) providers.ReadResourceResponse {
	resp := p.TestProvider.ReadResource(ctx, r)
	if d := p.drift.Load(); d != 0 && !resp.NewState.IsNull() {
		vals := resp.NewState.AsValueMap()
		vals["size"] = cty.NumberIntVal(d)
		resp.NewState = cty.ObjectVal(vals)
	}
	return resp
}

// settledThing is a test_thing created, late-initialised (as
// crossplane-runtime would persist it: spec and generation) and
// observed once up to date, so the next observation finds nothing
// changed; plans counts the provider's PlanResourceChange calls.
type settledThing struct {
	f     *fixture
	p     *driftingProvider
	m     *Managed
	plans *atomic.Int64
}

func newSettledThing(t *testing.T, async bool) *settledThing {
	t.Helper()
	f := newFixture(t, async)
	s := &settledThing{f: f, p: &driftingProvider{TestProvider: f.provider}, plans: &atomic.Int64{}}
	f.provider.PlanHook = func(_ providers.PlanResourceChangeRequest, planned cty.Value) cty.Value {
		s.plans.Add(1)
		return planned
	}
	lib := providers.NewLibrary(providers.Registry{f.kind.Provider: func() (providers.Interface, error) { return s.p, nil }})
	t.Cleanup(func() { _ = lib.Close() })
	f.conn.providers = &providerInstances{name: "test", lib: lib, addr: f.kind.Provider,
		schema: f.provider.GetProviderSchema(context.Background()).Provider, ctx: context.Background()}
	f.conn.stats = &Stats{}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "rotating"}, Data: map[string][]byte{"k": []byte("v1")}}
	if err := f.kube.Create(context.Background(), secret); err != nil {
		t.Fatal(err)
	}
	s.m = f.create("a", map[string]any{"name": "a", "secretSecretRef": map[string]any{"name": "rotating", "key": "k"}})
	s.m.SetGeneration(1)
	if _, err := f.external(s.m).Create(context.Background(), s.m); err != nil {
		t.Fatal(err)
	}
	if op := f.conn.workspaces.Get(s.m.GetUID()).running(); op != nil {
		// An asynchronous create wrote its external name to the stored
		// object.
		<-op.done
		if err := f.kube.Get(context.Background(), client.ObjectKeyFromObject(s.m), s.m); err != nil {
			t.Fatal(err)
		}
		s.m.SetGeneration(1)
	}
	if o := f.observe(s.m); !o.ResourceLateInitialized {
		t.Fatalf("first observation %+v, want size late-initialised", o)
	}
	s.m.SetGeneration(2)
	if o := f.observe(s.m); !o.ResourceUpToDate || o.ResourceLateInitialized {
		t.Fatalf("second observation %+v, want up to date with nothing to late-initialise", o)
	}
	return s
}

// observe observes the thing and returns the outcome and whether it was
// answered without a plan.
func (s *settledThing) observe(t *testing.T) (o observeOutcome) {
	t.Helper()
	before, unchanged := s.plans.Load(), s.f.conn.stats.Unchanged.Load()
	obs, err := s.f.external(s.m).Observe(context.Background(), s.m)
	return observeOutcome{exists: obs.ResourceExists, upToDate: obs.ResourceUpToDate, err: err != nil,
		skipped: s.f.conn.stats.Unchanged.Load() > unchanged, planned: s.plans.Load() > before}
}

type observeOutcome struct {
	exists, upToDate, err bool
	// skipped: answered as unchanged; planned: the provider planned.
	skipped, planned bool
}

// TestObserveUnchanged: an observation that finds the object and the
// desired state as the last full observation left them reports the
// resource up to date without planning; any change to either (spec, a
// Secret spec reads, the external name, the management policies, the
// object itself, its disappearance, an apply) makes the next
// observation a full one.
func TestObserveUnchanged(t *testing.T) {
	cases := map[string]struct {
		reason string
		change func(t *testing.T, s *settledThing)
		want   observeOutcome
	}{
		"nothing": {
			reason: "a poll of a resource nothing changed is answered from the last observation",
			change: func(*testing.T, *settledThing) {},
			want:   observeOutcome{exists: true, upToDate: true, skipped: true},
		},
		"spec": {
			reason: "a spec edit (a new generation) is planned, and is out of date",
			change: func(_ *testing.T, s *settledThing) {
				setField(s.m, "name", "b")
				s.m.SetGeneration(3)
			},
			want: observeOutcome{exists: true, planned: true},
		},
		"generation only": {
			reason: "a new generation is planned even when the configuration reads the same",
			change: func(_ *testing.T, s *settledThing) { s.m.SetGeneration(3) },
			want:   observeOutcome{exists: true, upToDate: true, planned: true},
		},
		"secret rotated": {
			reason: "a Secret spec reads changes the configuration, not the generation",
			change: func(t *testing.T, s *settledThing) {
				sec := &corev1.Secret{}
				if err := s.f.kube.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "rotating"}, sec); err != nil {
					t.Fatal(err)
				}
				sec.Data["k"] = []byte("v2")
				if err := s.f.kube.Update(context.Background(), sec); err != nil {
					t.Fatal(err)
				}
			},
			want: observeOutcome{exists: true, planned: true},
		},
		"drift": {
			reason: "an object changed behind the controller's back is planned, and is out of date",
			change: func(_ *testing.T, s *settledThing) { s.p.drift.Store(5) },
			want:   observeOutcome{exists: true, planned: true},
		},
		"gone": {
			reason: "an object deleted behind the controller's back does not exist",
			change: func(_ *testing.T, s *settledThing) { s.p.Gone = []string{"a"} },
			want:   observeOutcome{},
		},
		"policies": {
			reason: "new management policies observe afresh (ObserveOnly does not plan)",
			change: func(_ *testing.T, s *settledThing) {
				s.m.SetManagementPolicies(xpv1.ManagementPolicies{xpv1.ManagementActionObserve})
			},
			want: observeOutcome{exists: true, upToDate: true},
		},
		"external name": {
			reason: "a new external name is another object",
			change: func(_ *testing.T, s *settledThing) { meta.SetExternalName(s.m, "thing-9") },
			want:   observeOutcome{exists: true, upToDate: true, planned: true},
		},
		"updated": {
			reason: "after an apply the state is the apply's, not an observation's",
			change: func(t *testing.T, s *settledThing) {
				if _, err := s.f.external(s.m).Update(context.Background(), s.m); err != nil {
					t.Fatal(err)
				}
			},
			want: observeOutcome{exists: true, upToDate: true, planned: true},
		},
		"restarted": {
			reason: "a restarted controller rebuilds the state and observes in full",
			change: func(_ *testing.T, s *settledThing) { s.f.conn.workspaces = &Workspaces{} },
			want:   observeOutcome{exists: true, upToDate: true, planned: true},
		},
		"refused": {
			reason: "an observation that fails is not remembered as up to date",
			change: func(t *testing.T, s *settledThing) {
				setField(s.m, "replaceKey", "k2")
				s.m.SetGeneration(3)
				if o := s.observe(t); !o.err {
					t.Fatalf("a change that forces replacement: %+v, want an error", o)
				}
				setField(s.m, "replaceKey", nil)
				s.m.SetGeneration(4)
			},
			want: observeOutcome{exists: true, upToDate: true, planned: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := newSettledThing(t, false)
			if o := s.observe(t); !o.skipped || o.planned {
				t.Fatalf("before the change: %+v, want answered without a plan", o)
			}
			tc.change(t, s)
			if got := s.observe(t); got != tc.want {
				t.Errorf("%s: got %+v, want %+v", tc.reason, got, tc.want)
			}
		})
	}
}

// TestObserveUnchangedAsync: while an asynchronous update runs, and once
// it ended, the last full observation's outcome is not reused; the
// observation after the one that took the result is.
func TestObserveUnchangedAsync(t *testing.T) {
	s := newSettledThing(t, true)
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	s.f.provider.ApplyHook = func(_ providers.ApplyResourceChangeRequest, v cty.Value) cty.Value {
		once.Do(func() { close(reached); <-release })
		return v
	}
	setField(s.m, "name", "b")
	s.m.SetGeneration(3)
	if o := s.observe(t); o.upToDate || o.skipped {
		t.Fatalf("a renamed thing: %+v, want out of date", o)
	}
	if _, err := s.f.external(s.m).Update(context.Background(), s.m); err != nil {
		t.Fatal(err)
	}
	op := s.f.conn.workspaces.Get(s.m.GetUID()).running()
	<-reached // the update's own plan is done
	if o := s.observe(t); !o.upToDate || o.skipped || o.planned {
		t.Errorf("while the update runs: %+v, want reported up to date without a plan or the last outcome", o)
	}
	close(release)
	<-op.done
	if o := s.observe(t); !o.upToDate || o.skipped || !o.planned {
		t.Errorf("after the update: %+v, want a full observation", o)
	}
	if o := s.observe(t); !o.upToDate || !o.skipped {
		t.Errorf("the observation after: %+v, want answered without a plan", o)
	}
}
