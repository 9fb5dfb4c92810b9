package enginetest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

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

// moduleInstancesShape is calls module instances of ten resources each:
// a module called with count, each instance's resources taking the
// instance's variable, and an output of every instance read back.
func moduleInstancesShape(calls int) map[string]string {
	var b strings.Builder
	b.WriteString("variable \"prefix\" {}\n")
	for i := range 10 {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"${var.prefix}-%d\"\n}\n", i, i)
	}
	b.WriteString("output \"first\" { value = terraform_data.r0.output }\n")
	return map[string]string{
		"main.tf":   fmt.Sprintf("module \"m\" {\n  source = \"./m\"\n  count  = %d\n  prefix = \"m${count.index}\"\n}\noutput \"firsts\" { value = module.m[*].first }\n", calls),
		"m/main.tf": b.String(),
	}
}

// nestedModulesShape is a module nesting depth deep: each level declares
// ten resources taking a variable its parent passes down (from the
// parent's own resources), calls the next level, and passes the next
// level's output up.
func nestedModulesShape(depth int) map[string]string {
	files := map[string]string{
		"main.tf": "module \"l1\" {\n  source = \"./l1\"\n  in     = \"root\"\n}\noutput \"deepest\" { value = module.l1.deepest }\n",
	}
	for level := 1; level <= depth; level++ {
		var b strings.Builder
		b.WriteString("variable \"in\" {}\n")
		for i := range 10 {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"${var.in}-%d\"\n}\n", i, i)
		}
		if level < depth {
			fmt.Fprintf(&b, "module \"l%d\" {\n  source = \"./l%d\"\n  in     = terraform_data.r9.output\n}\n", level+1, level+1)
			fmt.Fprintf(&b, "output \"deepest\" { value = module.l%d.deepest }\n", level+1)
		} else {
			b.WriteString("output \"deepest\" { value = terraform_data.r0.output }\n")
		}
		// Each level's directory sits inside its parent's, as nested
		// module sources usually do.
		dir := ""
		for l := 1; l <= level; l++ {
			dir += fmt.Sprintf("l%d/", l)
		}
		files[dir+"main.tf"] = b.String()
	}
	return files
}

// moduleScaleSize is one module shape at one size.
type moduleScaleSize struct {
	name      string
	files     map[string]string
	instances int
}

// moduleScaleSizes are the module shapes at two sizes each, to show cost
// linear in module instances and in depth: 100 and 1,000 instances of
// ten resources, and 10 and 50 levels of ten resources.
func moduleScaleSizes() []moduleScaleSize {
	return []moduleScaleSize{
		{"instances/100", moduleInstancesShape(100), 1000},
		{"instances/1000", moduleInstancesShape(1000), 10000},
		{"nested/10", nestedModulesShape(10), 100},
		{"nested/50", nestedModulesShape(50), 500},
	}
}

// BenchmarkModuleScale plans the module shapes from nothing, plans them
// again once applied (no changes), and applies them (in memory).
func BenchmarkModuleScale(b *testing.B) {
	for _, sz := range moduleScaleSizes() {
		b.Run("plan/"+sz.name, func(b *testing.B) { benchModulePlan(b, sz.files, sz.instances, false) })
		b.Run("noop/"+sz.name, func(b *testing.B) { benchModulePlan(b, sz.files, sz.instances, true) })
		b.Run("apply/"+sz.name, func(b *testing.B) { benchModuleApply(b, sz.files, sz.instances) })
	}
}

func benchModulePlan(b *testing.B, files map[string]string, instances int, applied bool) {
	h := benchHarness(b, files, applied)
	b.ReportAllocs()
	b.ResetTimer()
	m := startCPU(instances)
	for b.Loop() {
		p, ds := h.Plan(plans.NormalMode)
		if ds.HasErrors() {
			b.Fatal(ds)
		}
		if len(p.Changes) != instances {
			b.Fatalf("%d changes, want %d", len(p.Changes), instances)
		}
		if applied {
			checkNoOp(b, p)
		}
	}
	m.report(b)
}

func benchModuleApply(b *testing.B, files map[string]string, instances int) {
	h, ds := New(files)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		h.State = emptyState()
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
	m := &cpuMeter{instances: instances}
	m.reportCPU(b, cpu)
}
