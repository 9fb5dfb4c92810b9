package states

import (
	"math/rand"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

var (
	awsProvider = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws")}
	tfProvider  = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
)

func managedRes(typ, name string) addrs.AbsResource {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}.Absolute(addrs.RootModuleInstance)
}

func dataRes(typ, name string) addrs.AbsResource {
	return addrs.Resource{Mode: addrs.DataResourceMode, Type: typ, Name: name}.Absolute(addrs.RootModuleInstance)
}

func src(id string) *ObjectSrc {
	return &ObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `"}`), Status: ObjectReady}
}

// stateView is a comparable summary of a state: for each instance address,
// its current object's id (or "-") and its deposed keys with ids.
type stateView map[string]instanceView

type instanceView struct {
	Current string
	Deposed map[addrs.DeposedKey]string
}

func viewState(s *State) stateView {
	out := stateView{}
	s.AllInstances(func(addr addrs.AbsResourceInstance, _ *Resource, is *ResourceInstance) {
		iv := instanceView{Current: "-"}
		if is.Current != nil {
			iv.Current = string(is.Current.AttrsJSON)
		}
		for k, o := range is.Deposed {
			if iv.Deposed == nil {
				iv.Deposed = map[addrs.DeposedKey]string{}
			}
			iv.Deposed[k] = string(o.AttrsJSON)
		}
		out[addr.String()] = iv
	})
	return out
}

func TestSetObjects(t *testing.T) {
	a0 := managedRes("terraform_data", "a").Instance(addrs.IntKey(0))
	a1 := managedRes("terraform_data", "a").Instance(addrs.IntKey(1))
	cases := map[string]struct {
		reason  string
		steps   func(s *State)
		want    stateView
		wantRes []string // resources present
	}{
		"AddCurrent": {
			steps: func(s *State) { s.SetResourceInstanceCurrent(a0, src("x"), tfProvider) },
			want:  stateView{"terraform_data.a[0]": {Current: `{"id":"x"}`}},
		},
		"ReplaceCurrent": {
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, src("x"), tfProvider)
				s.SetResourceInstanceCurrent(a0, src("y"), tfProvider)
			},
			want: stateView{"terraform_data.a[0]": {Current: `{"id":"y"}`}},
		},
		"RemoveCurrentRemovesInstanceAndResource": {
			reason: "An instance with no objects left is removed, and then its resource.",
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, src("x"), tfProvider)
				s.SetResourceInstanceCurrent(a0, nil, tfProvider)
			},
			want: stateView{},
		},
		"RemoveOneOfTwoInstances": {
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, src("x"), tfProvider)
				s.SetResourceInstanceCurrent(a1, src("y"), tfProvider)
				s.SetResourceInstanceCurrent(a0, nil, tfProvider)
			},
			want: stateView{"terraform_data.a[1]": {Current: `{"id":"y"}`}},
		},
		"RemoveCurrentKeepsDeposed": {
			reason: "A deposed object keeps its instance alive until it is deleted too.",
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, src("new"), tfProvider)
				s.SetResourceInstanceDeposed(a0, "00000001", src("old"), tfProvider)
				s.SetResourceInstanceCurrent(a0, nil, tfProvider)
			},
			want: stateView{"terraform_data.a[0]": {Current: "-", Deposed: map[addrs.DeposedKey]string{"00000001": `{"id":"old"}`}}},
		},
		"RemoveLastDeposedRemovesInstance": {
			steps: func(s *State) {
				s.SetResourceInstanceDeposed(a0, "00000001", src("old"), tfProvider)
				s.SetResourceInstanceDeposed(a0, "00000002", src("older"), tfProvider)
				s.SetResourceInstanceDeposed(a0, "00000001", nil, tfProvider)
				s.SetResourceInstanceDeposed(a0, "00000002", nil, tfProvider)
			},
			want: stateView{},
		},
		"RemoveDeposedKeepsCurrent": {
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, src("new"), tfProvider)
				s.SetResourceInstanceDeposed(a0, "00000001", src("old"), tfProvider)
				s.SetResourceInstanceDeposed(a0, "00000001", nil, tfProvider)
			},
			want: stateView{"terraform_data.a[0]": {Current: `{"id":"new"}`}},
		},
		"RemoveNothing": {
			reason: "Removing an object that does not exist creates nothing.",
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, nil, tfProvider)
				s.SetResourceInstanceDeposed(a1, "00000001", nil, tfProvider)
			},
			want: stateView{},
		},
		"RemoveUnknownDeposedKey": {
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, src("x"), tfProvider)
				s.SetResourceInstanceDeposed(a0, "0000000f", nil, tfProvider)
			},
			want: stateView{"terraform_data.a[0]": {Current: `{"id":"x"}`}},
		},
		"RemoveResource": {
			steps: func(s *State) {
				s.SetResourceInstanceCurrent(a0, src("x"), tfProvider)
				s.SetResourceInstanceCurrent(a1, src("y"), tfProvider)
				s.RemoveResource(a0.ContainingResource())
			},
			want: stateView{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewState()
			tc.steps(s)
			if diff := cmp.Diff(tc.want, viewState(s)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if len(tc.want) == 0 && (len(s.Resources) != 0 || !s.Empty()) {
				t.Errorf("%s\nresources left behind: %d", tc.reason, len(s.Resources))
			}
			for _, rs := range s.Resources {
				if len(rs.Instances) == 0 {
					t.Errorf("%s\nresource %s kept with no instances", tc.reason, rs.Addr)
				}
			}
		})
	}
}

func TestSetObjectsProviderAndLookup(t *testing.T) {
	a := managedRes("aws_instance", "a").Instance(addrs.NoKey)
	s := NewState()
	s.SetResourceInstanceCurrent(a, src("x"), awsProvider)
	rs := s.Resource(a.ContainingResource())
	if rs == nil {
		t.Fatal("resource not found")
	}
	if rs.ProviderConfig.String() != awsProvider.String() {
		t.Errorf("provider = %s, want %s", rs.ProviderConfig, awsProvider)
	}
	if !rs.Addr.Equal(a.ContainingResource()) {
		t.Errorf("resource address = %s", rs.Addr)
	}
	west := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws"), Alias: "west"}
	s.SetResourceInstanceDeposed(a, "00000001", src("old"), west)
	if rs.ProviderConfig.String() != west.String() {
		t.Errorf("recording an object must record its provider: got %s", rs.ProviderConfig)
	}
	if is := s.ResourceInstance(a); is == nil || is.Current == nil || is.Deposed["00000001"] == nil {
		t.Errorf("ResourceInstance(%s) = %+v", a, is)
	}
	if is := s.ResourceInstance(managedRes("aws_instance", "b").Instance(addrs.NoKey)); is != nil {
		t.Errorf("an absent instance was found: %+v", is)
	}
	if is := s.ResourceInstance(managedRes("aws_instance", "a").Instance(addrs.IntKey(0))); is != nil {
		t.Errorf("another key of the resource was found: %+v", is)
	}
}

func TestSortedResources(t *testing.T) {
	want := []string{
		"data.a.x",
		"data.b.a",
		"a.a",
		"a.b",
		"aws_instance.web",
		"b.a",
		"module.m.a.a",
	}
	addrsIn := []addrs.AbsResource{
		dataRes("a", "x"), dataRes("b", "a"), managedRes("a", "a"), managedRes("a", "b"),
		managedRes("aws_instance", "web"), managedRes("b", "a"),
		addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "a", Name: "a"}.Absolute(addrs.ModuleInstance{{Name: "m"}}),
	}
	rng := rand.New(rand.NewSource(1))
	for range 10 {
		s := NewState()
		for _, i := range rng.Perm(len(addrsIn)) {
			s.SetResourceInstanceCurrent(addrsIn[i].Instance(addrs.NoKey), src("x"), tfProvider)
		}
		var got []string
		for _, rs := range s.SortedResources() {
			got = append(got, rs.Addr.String())
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("-want +got:\n%s", diff)
		}
	}
}

func TestSortedInstanceKeys(t *testing.T) {
	r := managedRes("terraform_data", "a")
	keys := []addrs.InstanceKey{addrs.IntKey(10), addrs.StringKey("b"), addrs.IntKey(2), addrs.StringKey("10"), addrs.IntKey(0), addrs.StringKey("a")}
	s := NewState()
	for _, k := range keys {
		s.SetResourceInstanceCurrent(r.Instance(k), src("x"), tfProvider)
	}
	got := s.Resource(r).SortedInstanceKeys()
	want := []addrs.InstanceKey{addrs.IntKey(0), addrs.IntKey(2), addrs.IntKey(10), addrs.StringKey("10"), addrs.StringKey("a"), addrs.StringKey("b")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestSortedDeposedKeys(t *testing.T) {
	addr := managedRes("terraform_data", "a").Instance(addrs.NoKey)
	s := NewState()
	s.SetResourceInstanceCurrent(addr, src("x"), tfProvider)
	if got := s.ResourceInstance(addr).SortedDeposedKeys(); len(got) != 0 {
		t.Errorf("no deposed objects: got %v", got)
	}
	for _, k := range []addrs.DeposedKey{"f00d0003", "0000000a", "beef0001"} {
		s.SetResourceInstanceDeposed(addr, k, src("x"), tfProvider)
	}
	want := []addrs.DeposedKey{"0000000a", "beef0001", "f00d0003"}
	if diff := cmp.Diff(want, s.ResourceInstance(addr).SortedDeposedKeys()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestStateProviders(t *testing.T) {
	var nilState *State
	if got := nilState.Providers(); got != nil {
		t.Errorf("nil state: got %v", got)
	}
	s := NewState()
	s.SetResourceInstanceCurrent(managedRes("terraform_data", "a").Instance(addrs.NoKey), src("x"), tfProvider)
	s.SetResourceInstanceCurrent(managedRes("aws_instance", "b").Instance(addrs.NoKey), src("x"), awsProvider)
	s.SetResourceInstanceCurrent(managedRes("aws_vpc", "c").Instance(addrs.NoKey), src("x"), awsProvider)
	want := []addrs.Provider{awsProvider.Provider, tfProvider.Provider}
	if diff := cmp.Diff(want, s.Providers()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestDeepCopy(t *testing.T) {
	a := managedRes("terraform_data", "a").Instance(addrs.NoKey)
	b := managedRes("terraform_data", "b").Instance(addrs.IntKey(0))
	build := func() *State {
		s := NewState()
		s.SetResourceInstanceCurrent(a, src("a"), tfProvider)
		s.SetResourceInstanceDeposed(a, "00000001", src("a-old"), tfProvider)
		s.SetResourceInstanceCurrent(b, src("b"), tfProvider)
		s.Outputs["o"] = &OutputValue{Value: cty.StringVal("v")}
		return s
	}
	mutations := map[string]func(s *State){
		"RemoveInstance": func(s *State) { s.SetResourceInstanceCurrent(b, nil, tfProvider) },
		"ReplaceCurrent": func(s *State) { s.SetResourceInstanceCurrent(a, src("changed"), tfProvider) },
		"AddDeposed":     func(s *State) { s.SetResourceInstanceDeposed(a, "00000002", src("x"), tfProvider) },
		"RemoveDeposed":  func(s *State) { s.SetResourceInstanceDeposed(a, "00000001", nil, tfProvider) },
		"AddResource": func(s *State) {
			s.SetResourceInstanceCurrent(managedRes("c", "c").Instance(addrs.NoKey), src("c"), tfProvider)
		},
		"ChangeOutput":        func(s *State) { s.Outputs["o"].Value = cty.StringVal("changed") },
		"AddOutput":           func(s *State) { s.Outputs["p"] = &OutputValue{Value: cty.True} },
		"ChangeProvider":      func(s *State) { s.Resource(a.ContainingResource()).ProviderConfig = awsProvider },
		"RemoveResourceWhole": func(s *State) { s.RemoveResource(b.ContainingResource()) },
	}
	type fullView struct {
		Instances stateView
		Outputs   map[string]string
		Providers map[string]string
	}
	view := func(s *State) fullView {
		out := fullView{Instances: viewState(s), Outputs: map[string]string{}, Providers: map[string]string{}}
		for k, o := range s.Outputs {
			out.Outputs[k] = o.Value.GoString()
		}
		for _, rs := range s.Resources {
			out.Providers[rs.Addr.String()] = rs.ProviderConfig.String()
		}
		return out
	}
	for name, mutate := range mutations {
		t.Run(name+"OnCopy", func(t *testing.T) {
			orig := build()
			before := view(orig)
			cp := orig.DeepCopy()
			if diff := cmp.Diff(before, view(cp)); diff != "" {
				t.Fatalf("copy differs: -orig +copy:\n%s", diff)
			}
			mutate(cp)
			if diff := cmp.Diff(before, view(orig)); diff != "" {
				t.Errorf("changing the copy changed the original: -before +after:\n%s", diff)
			}
		})
		t.Run(name+"OnOriginal", func(t *testing.T) {
			orig := build()
			cp := orig.DeepCopy()
			before := view(cp)
			mutate(orig)
			if diff := cmp.Diff(before, view(cp)); diff != "" {
				t.Errorf("changing the original changed the copy: -before +after:\n%s", diff)
			}
		})
	}

	t.Run("Nil", func(t *testing.T) {
		var s *State
		if s.DeepCopy() != nil || !s.Empty() {
			t.Errorf("a nil state copies to nil and is empty")
		}
	})
}
