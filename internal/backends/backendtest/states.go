package backendtest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// Provider is the provider of every instance built here.
var Provider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

// ObjectAddr is the address of instance i, terraform_data.r[i].
func ObjectAddr(i int) addrs.AbsResourceInstanceObject {
	inst := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.
		Absolute(addrs.RootModuleInstance).Instance(addrs.IntKey(i))
	return addrs.AbsResourceInstanceObject{ResourceInstance: inst}
}

// Object is instance i's object, as terraform_data stores it.
func Object(i int) *states.ObjectSrc {
	return &states.ObjectSrc{
		AttrsJSON: fmt.Appendf(nil, `{"id":"id-%d","input":null,"output":null,"triggers_replace":null}`, i),
		Status:    states.ObjectReady,
	}
}

// StateWith is a state of instances 0 to n-1.
func StateWith(n int) *states.State {
	s := states.NewState()
	for i := range n {
		s.SetResourceInstanceCurrent(ObjectAddr(i).ResourceInstance, Object(i), Provider)
	}
	return s
}

// CountInstances is how many resource instances s holds.
func CountInstances(s *states.State) int {
	n := 0
	s.AllInstances(func(addrs.AbsResourceInstance, *states.Resource, *states.ResourceInstance) { n++ })
	return n
}

// RecordAll calls record(i) for i from 0 to n-1, each in its own
// goroutine, as an apply's workers finish instances at once, and fails t
// with the first error any returns.
func RecordAll(t testing.TB, n int, record func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() { errs <- record(i) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
