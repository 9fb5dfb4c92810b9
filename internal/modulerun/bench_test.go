package modulerun

import (
	"context"
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/plans"
)

// BenchmarkRun measures what a module component's Construct costs in
// the plugin: the first up (plan and apply from no state) and a second
// up with one input changed (a plan over the stored state, and an apply
// that updates every instance), for a module of n instances. Reported
// per run; -benchmem gives the allocations.
func BenchmarkRun(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 100, 1000} {
		m, ds := Load(ctx, Source{Source: "./many"}, Options{BaseDir: "testdata"})
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		vars := map[string]cty.Value{"n": cty.NumberIntVal(int64(n))}
		b.Run(fmt.Sprintf("create/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p, ds := m.Plan(ctx, plans.NormalMode, vars, nil)
				if ds.HasErrors() {
					b.Fatal(ds.Err())
				}
				if _, ds := m.Apply(ctx, p); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
			}
			b.ReportMetric(float64(n), "instances")
		})
		p, _ := m.Plan(ctx, plans.NormalMode, vars, nil)
		base, _ := m.Apply(ctx, p)
		changed := map[string]cty.Value{"n": cty.NumberIntVal(int64(n)), "tag": cty.StringVal("b")}
		b.Run(fmt.Sprintf("update/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p, ds := m.Plan(ctx, plans.NormalMode, changed, base.State)
				if ds.HasErrors() {
					b.Fatal(ds.Err())
				}
				if _, ds := m.Apply(ctx, p); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
			}
			b.ReportMetric(float64(n), "instances")
		})
		b.Run(fmt.Sprintf("noop-plan/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, ds := m.Plan(ctx, plans.NormalMode, vars, base.State); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
			}
			b.ReportMetric(float64(n), "instances")
		})
	}
}
