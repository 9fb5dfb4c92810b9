package enginetest

import (
	"bytes"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
)

// TestPlanFileRoundTrip saves a plan with unknowns, sensitive values,
// replacements and deletes, reads it back, and applies the copy: the
// result must equal applying the original.
func TestPlanFileRoundTrip(t *testing.T) {
	h, ds := New(map[string]string{"main.tf": `
variable "secret" {
  sensitive = true
  default   = "hunter2"
}
resource "terraform_data" "a" {
  count = 2
  input = { n = count.index, s = var.secret }
}
resource "terraform_data" "b" {
  input            = terraform_data.a[0].id
  triggers_replace = terraform_data.a[1].output
}
output "o" {
  value     = terraform_data.b.output
  sensitive = true
}
`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var buf bytes.Buffer
	if err := plans.WriteFile(&buf, p); err != nil {
		t.Fatal(err)
	}
	got, err := plans.ReadFile(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Changes) != len(p.Changes) || len(got.Graph.Nodes) != len(p.Graph.Nodes) {
		t.Fatalf("round trip lost changes or nodes: %d/%d changes, %d/%d nodes", len(got.Changes), len(p.Changes), len(got.Graph.Nodes), len(p.Graph.Nodes))
	}
	for i, c := range p.Changes {
		g := got.Changes[i]
		if !g.Addr.Equal(c.Addr) || g.Action != c.Action || !g.After.RawEquals(c.After) || !g.Before.RawEquals(c.Before) {
			t.Errorf("change %d: got %s %s %#v, want %s %s %#v", i, g.Addr, g.Action, g.After, c.Addr, c.Action, c.After)
		}
	}
	if v := got.VariableValues["secret"]; !v.HasMark(configschema.SensitiveMark) {
		t.Errorf("variable lost its sensitive mark: %#v", v)
	}
	if ds := h.Apply(got); ds.HasErrors() {
		t.Fatal(ds)
	}
	if out := h.State.Outputs["o"]; out == nil || !out.Sensitive || !out.Value.IsKnown() {
		t.Fatalf("output after applying the read plan: %#v", out)
	}
}

func TestPlanFileRejectsGarbage(t *testing.T) {
	for name, src := range map[string]string{
		"empty":      "",
		"state file": `{"version": 4}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := plans.ReadFile(bytes.NewReader([]byte(src))); err == nil {
				t.Fatal("no error")
			}
		})
	}
}
