package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkDiagnosticCases covers check blocks; the summaries and ranges are
// Terraform 1.5.7's (terraform validate -json).
func checkDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	const assert = `
  assert {
    condition     = terraform_data.a.id != ""
    error_message = "m"
  }
`
	return map[string]diagnosticCase{
		"CheckDuplicate": {
			files: files{"main.tf": `check "x" {` + assert + `}
check "x" {` + assert + `}`},
			want: []diagWant{errAt(`Duplicate check "x" configuration`, "main.tf:7:1")},
		},
		"CheckZeroAsserts": {
			files: files{"main.tf": `check "x" {
}`},
			want: []diagWant{errAt("Zero assert blocks", "main.tf:1:1")},
		},
		"CheckInvalidAssertIsNotCounted": {
			reason: "an assert Terraform rejects leaves the check with zero asserts, and both are reported",
			files: files{"main.tf": `check "x" {
  assert {
    condition     = true
    error_message = "m"
  }
}`},
			want: []diagWant{errAt("Invalid assert expression", "main.tf:3:21"), errAt("Zero assert blocks", "main.tf:1:1")},
		},
		"CheckTwoDataBlocks": {
			files: files{"main.tf": `check "x" {
  data "terraform_remote_state" "a" {
    backend = "local"
  }
  data "terraform_remote_state" "b" {
    backend = "local"
  }` + assert + `}`},
			want: []diagWant{errAt("Multiple data resource blocks", "main.tf:5:3")},
		},
		"CheckScopedDataCount": {
			files: files{"main.tf": `check "x" {
  data "terraform_remote_state" "a" {
    count   = 1
    backend = "local"
  }` + assert + `}`},
			want: []diagWant{errAt(`Invalid "count" attribute`, "main.tf:3:5")},
		},
		"CheckScopedDataForEach": {
			files: files{"main.tf": `check "x" {
  data "terraform_remote_state" "a" {
    for_each = {}
    backend  = "local"
  }` + assert + `}`},
			want: []diagWant{errAt(`Invalid "for_each" attribute`, "main.tf:3:5")},
		},
		"CheckScopedDataLifecycle": {
			files: files{"main.tf": `check "x" {
  data "terraform_remote_state" "a" {
    backend = "local"
    lifecycle {
      postcondition {
        condition     = self.outputs != null
        error_message = "m"
      }
    }
  }` + assert + `}`},
			want: []diagWant{errAt("Invalid lifecycle block", "main.tf:4:5")},
		},
		"CheckScopedDataDuplicatesModuleData": {
			reason: "scoped data resources share the module's names",
			files: files{"main.tf": `data "terraform_remote_state" "a" {
  backend = "local"
}
check "x" {
  data "terraform_remote_state" "a" {
    backend = "local"
  }` + assert + `}`},
			want: []diagWant{errAt(`Duplicate data "terraform_remote_state" configuration`, "main.tf:5:33")},
		},
		"CheckUnexpectedContent": {
			files: files{"main.tf": `check "x" {
  resource "terraform_data" "b" {}
  foo = 1` + assert + `}`},
			want: []diagWant{errAt("Unsupported argument", "main.tf:3:3"), errAt("Unsupported block type", "main.tf:2:3")},
		},
		"CheckInOverrideFile": {
			reason: "Terraform refuses any check block in an override file, matching or not",
			files: files{
				"main.tf":          `check "x" {` + assert + `}`,
				"main_override.tf": `check "x" {` + assert + `}`,
			},
			want: []diagWant{errAt("Can't override check blocks", "main_override.tf:1:1")},
		},
	}
}

// TestCheckDecode checks what a valid check block decodes to: its asserts
// in order, and its scoped data resource, which is also one of the
// module's data resources and names its check.
func TestCheckDecode(t *testing.T) {
	m := mustLoad(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {}
check "health" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config = { path = "s.tfstate" }
  }
  assert {
    condition     = data.terraform_remote_state.s.outputs != null
    error_message = "no outputs"
  }
  assert {
    condition     = terraform_data.a.id != ""
    error_message = "no id"
  }
}
`})
	c := m.Checks["health"]
	if c == nil {
		t.Fatalf("Checks = %v, want health", m.Checks)
	}
	type got struct {
		Asserts []string
		Data    string
		InData  bool
		Check   string
	}
	g := got{Data: c.DataResource.Addr().String(), Check: c.DataResource.Check}
	for _, a := range c.Asserts {
		g.Asserts = append(g.Asserts, exprText(m, a.ErrorMessage))
	}
	g.InData = m.DataResources["data.terraform_remote_state.s"] == c.DataResource
	want := got{Asserts: []string{`"no outputs"`, `"no id"`}, Data: "data.terraform_remote_state.s", InData: true, Check: "health"}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
