package testfiles

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/lang/funcs"
)

// BenchmarkRunFile runs a file of 10 apply-mode runs, each with an
// assert, against a module of 50 terraform_data instances, and its
// teardown: what one "cairn test" file costs besides the providers.
// Reports runs/op (10), and the heap in use after the run (peak-MB).
func BenchmarkRunFile(b *testing.B) {
	dir := b.TempDir()
	main := `variable "n" { default = 0 }
resource "terraform_data" "x" {
  count = 50
  input = "${var.n}-${count.index}"
}
output "last" { value = terraform_data.x[49].output }
`
	var tf strings.Builder
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&tf, "run \"r%d\" {\n  variables {\n    n = %d\n  }\n  assert {\n    condition     = output.last == \"%d-49\"\n    error_message = \"wrong\"\n  }\n}\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o644); err != nil {
		b.Fatal(err)
	}
	f, ds := Parse("a.tftest.hcl", []byte(tf.String()))
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	r := &Runner{Dir: dir, Funcs: funcs.Table(dir)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := r.RunFile(context.Background(), f)
		if res.Status != Pass {
			b.Fatalf("status %s: %v", res.Status, res.Runs[0].Diags)
		}
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(10, "runs/op")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "peak-MB")
}
