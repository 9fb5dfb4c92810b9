package statemgr

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
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
