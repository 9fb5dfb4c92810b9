package enginetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
)

// shapes are the benchmark configurations: every shape must plan and apply
// in time linear in n.
var shapes = map[string]func(n int) string{
	"independent": func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
		}
		return b.String()
	},
	"count": func(n int) string {
		return fmt.Sprintf("resource \"terraform_data\" \"r\" {\n  count = %d\n  input = \"v${count.index}\"\n}\n", n)
	},
	// for_each is n instances keyed by a set a for expression builds:
	// converting the tuple to a set was quadratic in go-cty (issue 21).
	"for_each": func(n int) string {
		return fmt.Sprintf(`resource "terraform_data" "r" {
  for_each = toset(flatten([for i in range(%d) : [for j in range(100) : "k${i}-${j}"]]))
  input    = each.key
}
`, n/100)
	},
	"fanout": func(n int) string {
		return fmt.Sprintf("resource \"terraform_data\" \"root\" {\n  input = \"root\"\n}\nresource \"terraform_data\" \"r\" {\n  count = %d\n  input = terraform_data.root.output\n}\n", n)
	},
	// triggered is two count resources of n/2 instances, each instance of
	// the second replaced when its counterpart in the first changes: the
	// shape that was quadratic while replace_triggered_by scanned changes.
	"triggered": func(n int) string {
		return fmt.Sprintf(`resource "terraform_data" "a" {
  count = %d
  input = "v${count.index}"
}
resource "terraform_data" "b" {
  count = %d
  input = "w${count.index}"
  lifecycle { replace_triggered_by = [terraform_data.a[count.index]] }
}
`, n/2, n/2)
	},
	"chain": func(n int) string {
		var b strings.Builder
		b.WriteString("resource \"terraform_data\" \"r0\" {\n  input = \"start\"\n}\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i-1)
		}
		return b.String()
	},
}

// moduleShape is n instances behind module instances: a module called
// with count = n/100, each instance declaring 100 resources, the shape
// issue 9 compares with OpenTofu.
func moduleShape(n int) map[string]string {
	var b strings.Builder
	b.WriteString("variable \"prefix\" {}\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"${var.prefix}-%d\"\n}\n", i, i)
	}
	b.WriteString("output \"first\" { value = terraform_data.r0.output }\n")
	return map[string]string{
		"main.tf":   fmt.Sprintf("module \"m\" {\n  source = \"./m\"\n  count  = %d\n  prefix = \"m${count.index}\"\n}\noutput \"firsts\" { value = module.m[*].first }\n", n/100),
		"m/main.tf": b.String(),
	}
}

// shapeFiles returns the configuration files of a shape.
func shapeFiles(shape string, n int) map[string]string {
	if shape == "modules" {
		return moduleShape(n)
	}
	return map[string]string{"main.tf": shapes[shape](n)}
}

func benchPlan(b *testing.B, shape string, n int, applied bool) {
	h := benchHarness(b, shapeFiles(shape, n), applied)
	b.ReportAllocs()
	b.ResetTimer()
	m := startCPU(n)
	for b.Loop() {
		if _, ds := h.Plan(plans.NormalMode); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
	m.report(b)
}

// benchHarness is a harness over files, applied once first when applied
// is set (for no-op plans).
func benchHarness(b *testing.B, files map[string]string, applied bool) *Harness {
	b.Helper()
	h, ds := New(files)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	if applied {
		p, ds := h.Plan(plans.NormalMode)
		if ds.HasErrors() {
			b.Fatal(ds)
		}
		if ds := h.Apply(p); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
	return h
}

// benchSize is one shape at one size.
type benchSize struct {
	shape string
	n     int
}

// benchSizes lists the shapes at 1,000 and 10,000 instances; the chain is
// 1,000 long (its cost is sequential by nature).
func benchSizes() []benchSize {
	var out []benchSize
	for _, shape := range []string{"independent", "count", "for_each", "fanout", "triggered", "chain", "modules"} {
		for _, n := range []int{1000, 10000} {
			if shape == "chain" && n > 1000 {
				continue
			}
			out = append(out, benchSize{shape, n})
		}
	}
	return out
}

func BenchmarkPlanCreate(b *testing.B) {
	for _, sz := range benchSizes() {
		b.Run(fmt.Sprintf("%s/%d", sz.shape, sz.n), func(b *testing.B) { benchPlan(b, sz.shape, sz.n, false) })
	}
}

// BenchmarkPlanNoOp plans against a state where everything already exists
// and matches: every prior object is decoded, refreshed and compared.
func BenchmarkPlanNoOp(b *testing.B) {
	for _, sz := range benchSizes() {
		b.Run(fmt.Sprintf("%s/%d", sz.shape, sz.n), func(b *testing.B) { benchPlan(b, sz.shape, sz.n, true) })
	}
}

// BenchmarkApplyCreate applies with an in-memory state writer: the engine's
// own cost, without durability (see BenchmarkApplyDurable).
func BenchmarkApplyCreate(b *testing.B) {
	for _, sz := range benchSizes() {
		shape, n := sz.shape, sz.n
		b.Run(fmt.Sprintf("%s/%d", shape, n), func(b *testing.B) {
			h, ds := New(shapeFiles(shape, n))
			if ds.HasErrors() {
				b.Fatal(ds)
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				h.State = nil
				h.State = emptyState()
				p, ds := h.Plan(plans.NormalMode)
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				b.StartTimer()
				if ds := h.Apply(p); ds.HasErrors() {
					b.Fatal(ds)
				}
			}
		})
	}
}
