package enginetest

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
)

// ephemeralShape is n test_token instances (count), each deciding a
// precondition of one of n test_thing instances: every token is opened
// while planning and closed at its end.
func ephemeralShape(n int) map[string]string {
	return map[string]string{"main.tf": fmt.Sprintf(`
ephemeral "test_token" "t" {
  count = %d
  name  = "t${count.index}"
}
resource "test_thing" "a" {
  count = %d
  name  = "a${count.index}"
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.t[count.index].value != ""
      error_message = "No token."
    }
  }
}
`, n, n)}
}

// BenchmarkPlanEphemeral plans n ephemeral resource instances and the n
// instances that use them: the cost of opening, publishing and closing
// each, beside BenchmarkPlanCreate/count's for the things alone.
func BenchmarkPlanEphemeral(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			h, ds := New(ephemeralShape(n))
			if ds.HasErrors() {
				b.Fatal(ds)
			}
			tp := &TestProvider{}
			h.WithTestProvider(tp)
			b.ReportAllocs()
			m := startCPU(n)
			for b.Loop() {
				if _, ds := h.Plan(plans.NormalMode); ds.HasErrors() {
					b.Fatal(ds)
				}
				b.StopTimer()
				opened := len(takeLog(tp))
				if opened != 2*n {
					b.Fatalf("the provider saw %d opens and closes, want %d", opened, 2*n)
				}
				b.StartTimer()
			}
			m.report(b)
		})
	}
}
