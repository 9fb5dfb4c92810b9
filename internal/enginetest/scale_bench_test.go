package enginetest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// BenchmarkPlanNoOpChainFromFile is the no-op plan of an applied chain as
// the CLI runs it: the state file is read, then everything is refreshed
// and compared. Terraform records dependencies transitively, so the state
// of an N-long chain holds N²/2 dependency entries naming N resources;
// reading them once per entry through HCL's lexer made this plan five
// times slower (issue 26).
func BenchmarkPlanNoOpChainFromFile(b *testing.B) {
	for _, n := range []int{300, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			h, ds := New(shapeFiles("chain", n))
			if ds.HasErrors() {
				b.Fatal(ds)
			}
			src := appliedStateFile(b, h, n*(n-1)/2)
			b.ReportAllocs()
			b.ResetTimer()
			m := startCPU(n)
			for b.Loop() {
				f, err := statefile.Read(bytes.NewReader(src))
				if err != nil {
					b.Fatal(err)
				}
				h.State = f.State
				p, ds := h.Plan(plans.NormalMode)
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				checkNoOp(b, p)
			}
			m.report(b)
			b.ReportMetric(float64(len(src)), "state-bytes")
		})
	}
}

// appliedStateFile applies h's configuration and returns the state file,
// which must record wantDeps dependency entries in all.
func appliedStateFile(b *testing.B, h *Harness, wantDeps int) []byte {
	b.Helper()
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		b.Fatal(ds)
	}
	deps := 0
	for _, rs := range h.State.Resources {
		for _, ri := range rs.Instances {
			deps += len(ri.Current.Dependencies)
		}
	}
	if deps != wantDeps {
		b.Fatalf("state records %d dependencies, want %d", deps, wantDeps)
	}
	var buf bytes.Buffer
	if err := statefile.Write(&statefile.File{TerraformVersion: "1.5.7", Serial: 1, Lineage: "l", State: h.State}, &buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// checkNoOp fails unless every change of p is a no-op.
func checkNoOp(b *testing.B, p *plans.Plan) {
	for _, c := range p.Changes {
		if c.Action != plans.NoOp {
			b.Fatalf("%s: %s, want no change", c.Addr, c.Action)
		}
	}
}
