package statemgr

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// TestPersistProviderKeyChange: an object that moves to another instance
// of a provider configuration with for_each is a new snapshot, though
// nothing else changed: the next destroy needs the instance recorded.
func TestPersistProviderKeyChange(t *testing.T) {
	m := newManager(t)
	keyed := testProvider
	keyed.Alias = "r"
	s := stateOf(0)
	s.SetResourceInstanceCurrent(instanceAddr(0), testObject(0), keyed.Instance(addrs.StringKey("a")))
	first, err := m.Persist(s)
	if err != nil {
		t.Fatal(err)
	}
	moved := s.DeepCopy()
	moved.SetResourceInstanceCurrent(instanceAddr(0), testObject(0), keyed.Instance(addrs.StringKey("b")))
	next, err := m.Persist(moved)
	if err != nil {
		t.Fatal(err)
	}
	if next.Serial != first.Serial+1 {
		t.Fatalf("serial %d after moving the object to another provider instance; want %d", next.Serial, first.Serial+1)
	}
	if got := next.State.Resource(instanceAddr(0).ContainingResource()).InstanceProvider(instanceAddr(0).Resource.Key); !got.Equal(keyed.Instance(addrs.StringKey("b"))) {
		t.Errorf("provider instance %s; want %s", got, keyed.Instance(addrs.StringKey("b")))
	}
	same, err := m.Persist(moved.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	if same.Serial != next.Serial {
		t.Errorf("serial %d after persisting the same state; want %d (a copy keeps the provider key)", same.Serial, next.Serial)
	}
}

// TestPersistIdentityChange: an object whose identity alone changed (a
// provider upgraded it at refresh) is a new snapshot with that identity.
func TestPersistIdentityChange(t *testing.T) {
	m := newManager(t)
	withIdentity := func(json string, version uint64) *states.State {
		obj := testObject(0)
		obj.Identity = states.Identity{JSON: []byte(json), SchemaVersion: version}
		s := stateOf(0)
		s.SetResourceInstanceCurrent(instanceAddr(0), obj, testProvider)
		return s
	}
	first, err := m.Persist(withIdentity(`{"thing_name":"a"}`, 0))
	if err != nil {
		t.Fatal(err)
	}
	next, err := m.Persist(withIdentity(`{"name":"a"}`, 1))
	if err != nil {
		t.Fatal(err)
	}
	if next.Serial != first.Serial+1 {
		t.Fatalf("serial %d after the identity was upgraded; want %d", next.Serial, first.Serial+1)
	}
	got := next.State.Resource(instanceAddr(0).ContainingResource()).Instances[instanceAddr(0).Resource.Key].Current.Identity
	if want := (states.Identity{JSON: []byte(`{"name":"a"}`), SchemaVersion: 1}); !got.Equal(want) {
		t.Errorf("stored identity %s v%d; want %s v%d", got.JSON, got.SchemaVersion, want.JSON, want.SchemaVersion)
	}
}
