package refactoring

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// BenchmarkApplyMoves renames 100 resources of a 10,000-instance state.
func BenchmarkApplyMoves(b *testing.B) {
	base := states.NewState()
	for i := 0; i < 10000; i++ {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
		base.SetResourceInstanceCurrent(addr, &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, addrs.AbsProviderConfig{})
	}
	var stmts []Statement
	for i := 0; i < 100; i++ {
		from := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}
		to := from
		to.Name = fmt.Sprintf("moved%d", i)
		stmts = append(stmts, Statement{From: addrs.MoveEndpoint{Resource: &from}, To: addrs.MoveEndpoint{Resource: &to}})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := base.DeepCopy()
		b.StartTimer()
		if res := ApplyMoves(stmts, s); len(res.Changes) != 100 {
			b.Fatalf("%d changes", len(res.Changes))
		}
	}
}
