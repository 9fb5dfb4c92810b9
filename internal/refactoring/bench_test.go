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

// BenchmarkMoveModuleCall moves a whole module call (module.a to module.b)
// of calls instances holding 10,000 resources between them: each instance
// looks through the state once, so many small instances cost the most.
func BenchmarkMoveModuleCall(b *testing.B) {
	for _, calls := range []int{100, 1000} {
		b.Run(fmt.Sprintf("%dx%d", calls, 10000/calls), func(b *testing.B) {
			base := states.NewState()
			for c := 0; c < calls; c++ {
				mod := addrs.ModuleInstance{{Name: "a", Key: addrs.IntKey(c)}}
				for r := 0; r < 10000/calls; r++ {
					addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", r)}.Instance(addrs.NoKey).Absolute(mod)
					base.SetResourceInstanceCurrent(addr, &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, addrs.AbsProviderConfig{})
				}
			}
			stmts := []Statement{{From: addrs.MoveEndpoint{Path: addrs.ModuleInstance{{Name: "a"}}}, To: addrs.MoveEndpoint{Path: addrs.ModuleInstance{{Name: "b"}}}}}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				s := base.DeepCopy()
				b.StartTimer()
				if res := ApplyMoves(stmts, s); len(res.Changes) != 10000 {
					b.Fatalf("%d changes", len(res.Changes))
				}
			}
		})
	}
}
