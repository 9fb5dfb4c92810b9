package modulerun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
variable "cidr" {
  type        = string
  description = "The VPC's CIDR block."
}
variable "tags" {
  type    = map(string)
  default = {}
}
variable "subnet" {
  type = object({ name = string, size = optional(number, 24) })
  default = null
}
variable "anything" {}
variable "password" {
  type      = string
  sensitive = true
  default   = "x"
}
output "id" {
  value       = var.cidr
  description = "The ID."
}
output "secret" {
  value     = var.password
  sensitive = true
}
`)
	got, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	type v struct {
		name                string
		ty                  cty.Type
		required, sensitive bool
		desc                string
	}
	want := []v{
		{"anything", cty.DynamicPseudoType, true, false, ""},
		{"cidr", cty.String, true, false, "The VPC's CIDR block."},
		{"password", cty.String, false, true, ""},
		{"subnet", cty.ObjectWithOptionalAttrs(map[string]cty.Type{"name": cty.String, "size": cty.Number}, []string{"size"}), false, false, ""},
		{"tags", cty.Map(cty.String), false, false, ""},
	}
	if len(got.Variables) != len(want) {
		t.Fatalf("variables: got %d, want %d: %+v", len(got.Variables), len(want), got.Variables)
	}
	for i, w := range want {
		g := got.Variables[i]
		if g.Name != w.name || !g.Type.Equals(w.ty) || g.Required != w.required || g.Sensitive != w.sensitive || g.Description != w.desc {
			t.Errorf("variable %d: got %s %s required=%v sensitive=%v %q, want %+v", i, g.Name, g.Type.GoString(), g.Required, g.Sensitive, g.Description, w)
		}
	}
	if d := got.Variables[4].Default; d == cty.NilVal || d.LengthInt() != 0 {
		t.Errorf("tags default: got %#v, want an empty map", d)
	}
	wantOut := []OutputDecl{{Name: "id", Description: "The ID."}, {Name: "secret", Sensitive: true}}
	if len(got.Outputs) != 2 || got.Outputs[0] != wantOut[0] || got.Outputs[1] != wantOut[1] {
		t.Errorf("outputs: got %+v, want %+v", got.Outputs, wantOut)
	}
}

func TestInspectErrors(t *testing.T) {
	bad := t.TempDir()
	writeFile(t, filepath.Join(bad, "main.tf"), `variable "x" { type = nosuchtype }`)
	for name, dir := range map[string]string{"missing": filepath.Join(t.TempDir(), "nope"), "invalid": bad} {
		t.Run(name, func(t *testing.T) {
			_, err := Inspect(dir)
			if err == nil || !strings.Contains(err.Error(), dir) {
				t.Fatalf("got %v, want an error naming %s", err, dir)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
