package enginetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
)

// movedShape is a refactor of n applied instances: before is the
// configuration they were created from, after the same objects at new
// addresses with the moved blocks that say so.
type movedShape struct {
	before, after func(n int) map[string]string
}

// movedShapes are the refactors issue 9 measures: one resource with count
// renamed by one moved block, a module call with count renamed by one
// moved block, and n single resources each renamed by its own.
var movedShapes = map[string]movedShape{
	"count": {
		before: func(n int) map[string]string { return countFiles("old", n, "") },
		after: func(n int) map[string]string {
			return countFiles("new", n, "moved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n")
		},
	},
	"modules": {
		before: func(n int) map[string]string { return moduleCallFiles("a", n, "") },
		after: func(n int) map[string]string {
			return moduleCallFiles("b", n, "moved {\n  from = module.a\n  to   = module.b\n}\n")
		},
	},
	"blocks": {
		before: func(n int) map[string]string { return separateFiles("old", n, false) },
		after:  func(n int) map[string]string { return separateFiles("new", n, true) },
	},
}

func countFiles(name string, n int, extra string) map[string]string {
	return map[string]string{"main.tf": fmt.Sprintf("resource \"terraform_data\" %q {\n  count = %d\n  input = \"v${count.index}\"\n}\n%s", name, n, extra)}
}

// moduleCallFiles is moduleShape with the call named name.
func moduleCallFiles(name string, n int, extra string) map[string]string {
	files := moduleShape(n)
	files["main.tf"] = fmt.Sprintf("module %q {\n  source = \"./m\"\n  count  = %d\n  prefix = \"m${count.index}\"\n}\n%s", name, n/100, extra)
	return files
}

// separateFiles declares n resources prefix0..; with moves, each has a
// moved block from old0.. .
func separateFiles(prefix string, n int, moves bool) map[string]string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"%s%d\" {\n  input = \"v%d\"\n}\n", prefix, i, i)
		if moves {
			fmt.Fprintf(&b, "moved {\n  from = terraform_data.old%d\n  to   = terraform_data.%s%d\n}\n", i, prefix, i)
		}
	}
	return map[string]string{"main.tf": b.String()}
}

// movedHarness applies shape's before configuration at n and returns a
// harness holding that state and the after configuration. It fails the
// benchmark unless the plan moves all n objects and changes nothing else,
// so a benchmark can never measure a plan that silently stopped moving.
func movedHarness(b *testing.B, shape string, n int) *Harness {
	s := movedShapes[shape]
	h, ds := New(s.before(n))
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		b.Fatal(ds)
	}
	after, ds := New(s.after(n))
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	h.Config = after.Config
	p, ds = h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	checkMovesOnly(b, p, n)
	return h
}

func checkMovesOnly(b *testing.B, p *plans.Plan, n int) {
	moved := 0
	for _, c := range p.Changes {
		if c.Action != plans.NoOp {
			b.Fatalf("%s: %s, want only moves", c.Addr, c.Action)
		}
		if c.Moved() {
			moved++
		}
	}
	if moved != n {
		b.Fatalf("%d instances moved, want %d", moved, n)
	}
}

// movedSizes lists every refactor at 1,000 and 10,000 instances.
func movedSizes() []benchSize {
	var out []benchSize
	for _, shape := range []string{"count", "modules", "blocks"} {
		for _, n := range []int{1000, 10000} {
			out = append(out, benchSize{shape, n})
		}
	}
	return out
}

// BenchmarkPlanMoved plans a refactor of n applied instances: state is
// rebound to the new addresses, then every object refreshed and compared,
// and the plan shows n moves and nothing else.
func BenchmarkPlanMoved(b *testing.B) {
	for _, sz := range movedSizes() {
		b.Run(fmt.Sprintf("%s/%d", sz.shape, sz.n), func(b *testing.B) {
			h := movedHarness(b, sz.shape, sz.n)
			b.ReportAllocs()
			b.ResetTimer()
			m := startCPU(sz.n)
			for b.Loop() {
				if _, ds := h.Plan(plans.NormalMode); ds.HasErrors() {
					b.Fatal(ds)
				}
			}
			m.report(b)
		})
	}
}

// BenchmarkApplyMoved applies a moves-only plan (in memory): nothing calls
// the provider; every object is recorded at its new address.
func BenchmarkApplyMoved(b *testing.B) {
	for _, sz := range movedSizes() {
		b.Run(fmt.Sprintf("%s/%d", sz.shape, sz.n), func(b *testing.B) {
			h := movedHarness(b, sz.shape, sz.n)
			prior := h.State
			b.ReportAllocs()
			b.ResetTimer()
			// CPU is counted around the apply only, as the timer is.
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				h.State = prior
				p, ds := h.Plan(plans.NormalMode)
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				b.StartTimer()
				c0, _ := rusage()
				if ds := h.Apply(p); ds.HasErrors() {
					b.Fatal(ds)
				}
				c1, _ := rusage()
				cpu += c1 - c0
			}
			b.StopTimer()
			checkMovedState(b, h.State, sz.n)
			m := &cpuMeter{instances: sz.n}
			m.reportCPU(b, cpu)
		})
	}
}

// checkMovedState fails unless state holds n instances, none at an old
// address.
func checkMovedState(b *testing.B, s *states.State, n int) {
	count := 0
	for _, rs := range s.Resources {
		if addr := rs.Addr.String(); strings.Contains(addr, ".old") || strings.HasPrefix(addr, "module.a[") {
			b.Fatalf("%s still in state after the moves", addr)
		}
		count += len(rs.Instances)
	}
	if count != n {
		b.Fatalf("%d instances in state, want %d", count, n)
	}
}
