package enginetest

import (
	"context"
	"sort"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// infinitySpy is the test provider, noting every call that carries an
// infinite number.
type infinitySpy struct {
	*TestProvider
	mu  sync.Mutex
	saw []string
}

func (s *infinitySpy) note(op string, vals ...cty.Value) {
	for _, v := range vals {
		if v == cty.NilVal {
			continue
		}
		if _, _, found := states.FirstUnstorableNumber(v); found {
			s.mu.Lock()
			s.saw = append(s.saw, op)
			s.mu.Unlock()
		}
	}
}

func (s *infinitySpy) ConfigureProvider(ctx context.Context, r providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	s.note("ConfigureProvider", r.Config)
	return s.TestProvider.ConfigureProvider(ctx, r)
}

func (s *infinitySpy) ValidateResourceConfig(ctx context.Context, r providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	s.note("ValidateResourceConfig", r.Config)
	return s.TestProvider.ValidateResourceConfig(ctx, r)
}

func (s *infinitySpy) PlanResourceChange(ctx context.Context, r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	s.note("PlanResourceChange", r.Config, r.ProposedNewState)
	return s.TestProvider.PlanResourceChange(ctx, r)
}

// TestInfiniteNumbersNeverReachProvider: an infinite number in a provider
// or resource configuration is refused at the argument that produced it,
// and the provider is never called with it. Before, terraform_data was
// created from +Inf and then could not be recorded in the state.
func TestInfiniteNumbersNeverReachProvider(t *testing.T) {
	tests := map[string]struct {
		src string
		pos string
	}{
		"resource literal": {
			src: "resource \"test_thing\" \"a\" {\n  name = \"a\"\n  size = 1e999999999\n}\n",
			pos: "main.tf:3:10",
		},
		"resource function": {
			src: "resource \"test_thing\" \"a\" {\n  name = \"a\"\n  size = pow(10, 400)\n}\n",
			pos: "main.tf:3:10",
		},
		"resource from a local": {
			src: "locals {\n  n = -1/0\n}\nresource \"test_thing\" \"a\" {\n  name = \"a\"\n  size = local.n\n}\n",
			pos: "main.tf:6:10",
		},
		"provider configuration": {
			src: "provider \"test\" {\n  n = 1/0\n}\nresource \"test_thing\" \"a\" {\n  name = \"a\"\n}\n",
			pos: "main.tf:2:7",
		},
		"root output": {
			src: "output \"o\" {\n  value = [1e999999999]\n}\n",
			pos: "main.tf:2:11",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, ds := New(map[string]string{"main.tf": tc.src})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			spy := &infinitySpy{TestProvider: &TestProvider{ConfigSchema: &configschema.Block{
				Attributes: map[string]*configschema.Attribute{"n": {Type: cty.Number, Optional: true}},
			}}}
			h.Providers[TestProviderAddr] = func() (providers.Interface, error) { return spy, nil }
			_, ds = h.Plan(plans.NormalMode)
			wantDiag(t, ds, "Number out of range", tc.pos)
			if len(spy.saw) > 0 {
				t.Errorf("the provider was called with an infinite number: %v", spy.saw)
			}
		})
	}
}

func (s *infinitySpy) ApplyResourceChange(ctx context.Context, r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	s.note("ApplyResourceChange", r.Config, r.PlannedState)
	return s.TestProvider.ApplyResourceChange(ctx, r)
}

// TestInfiniteNumbersLearnedInApply: a value known only during apply (it
// depends on an id the provider chooses) that turns out infinite is
// refused at its argument before the final plan, and an output likewise
// before it is recorded; the provider never sees it, and what was created
// before stays in state. Before, the resource was created from +Inf and
// the output failed as "Failed to persist state".
func TestInfiniteNumbersLearnedInApply(t *testing.T) {
	const src = `
resource "test_thing" "a" {
  name = "a"
}
resource "test_thing" "b" {
  name = "b"
  size = 1 / (length(test_thing.a.id) - length(test_thing.a.id))
}
output "o" {
  value = -1 / (length(test_thing.a.id) - length(test_thing.a.id))
}
`
	h, ds := New(map[string]string{"main.tf": src})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spy := &infinitySpy{TestProvider: &TestProvider{}}
	h.Providers[TestProviderAddr] = func() (providers.Interface, error) { return spy, nil }
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	ds = h.Apply(p)
	var at []string
	for _, d := range ds {
		if d.Summary == "Number out of range" && d.Subject != nil {
			at = append(at, d.Subject.Filename+":"+itoa(d.Subject.Start.Line)+":"+itoa(d.Subject.Start.Column))
		}
	}
	sort.Strings(at)
	if diff := cmp.Diff([]string{"main.tf:10:11", "main.tf:7:10"}, at); diff != "" {
		t.Errorf("Number out of range errors (-want +got):\n%s\nall: %v", diff, ds)
	}
	if len(spy.saw) > 0 {
		t.Errorf("the provider was called with an infinite number: %v", spy.saw)
	}
	if got := len(h.State.SortedResources()); got != 1 {
		t.Errorf("state holds %d resources, want test_thing.a alone", got)
	}
	if _, ok := h.State.Outputs["o"]; ok {
		t.Errorf("output o was recorded")
	}
}
