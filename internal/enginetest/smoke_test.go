package enginetest

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
)

func TestSmoke(t *testing.T) {
	h, ds := New(map[string]string{"main.tf": `
variable "n" { default = 3 }
locals { prefix = "p" }
resource "terraform_data" "a" {
  count = var.n
  input = "${local.prefix}-${count.index}"
}
resource "terraform_data" "b" {
  input = terraform_data.a[*].output
}
output "b" { value = terraform_data.b.output }
`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	add, change, destroy := p.Counts()
	if add != 4 || change != 0 || destroy != 0 {
		t.Fatalf("counts = %d %d %d", add, change, destroy)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	out := h.State.Outputs["b"]
	if out == nil || out.Value.LengthInt() != 3 {
		t.Fatalf("output b = %#v", out)
	}
	p2, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if p2.HasChanges() {
		for _, c := range p2.Changes {
			t.Logf("%s %s", c.Addr, c.Action)
		}
		t.Fatal("second plan has changes")
	}
}
