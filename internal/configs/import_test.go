package configs

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
)

const importTarget = `resource "awscc_logs_log_group" "a" {}
provider "awscc" { alias = "west" }
resource "awscc_logs_log_group" "w" { provider = awscc.west }
data "awscc_logs_log_group" "d" {}
`

// importDiagnosticCases covers import blocks.
func importDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	return map[string]diagnosticCase{
		"ImportToFunction": {
			reason: "to is an address whose keys may be expressions, nothing else",
			files: files{"main.tf": importTarget + `import {
  to = lower(awscc_logs_log_group.a)
  id = "x"
}`},
			want: []diagWant{errAt("Invalid import address expression", "main.tf:6:8")},
		},

		"ImportIDMissing": {
			files: files{"main.tf": importTarget + `import {
  to = awscc_logs_log_group.a
}`},
			want: []diagWant{errAt("Invalid import block", "main.tf:5:1")},
		},
		"ImportIDAndIdentity": {
			reason: "Terraform 1.12: an import block names its object by id or by identity, not both",
			files: files{"main.tf": importTarget + `import {
  to       = awscc_logs_log_group.a
  id       = "x"
  identity = { log_group_name = "x" }
}`},
			want: []diagWant{errAt("Invalid import block", "main.tf:8:3")},
		},
		"ImportToString": {
			files: files{"main.tf": importTarget + `import {
  to = "awscc_logs_log_group.a"
  id = "x"
}`},
			want: []diagWant{errAt("Invalid import address expression", "main.tf:6:8")},
		},
		"ImportToNotAResource": {
			files: files{"main.tf": importTarget + `import {
  to = awscc_logs_log_group
  id = "x"
}`},
			want: []diagWant{errAt("Invalid resource instance address", "main.tf:6:8")},
		},

		"ImportTargetData": {
			files: files{"main.tf": importTarget + `import {
  to = data.awscc_logs_log_group.d
  id = "x"
}`},
			want: []diagWant{errAt("Invalid import address", "main.tf:5:1")},
		},
		"ImportDuplicate": {
			files: files{"main.tf": importTarget + `import {
  to = awscc_logs_log_group.a
  id = "x"
}`, "other.tf": `import {
  to = awscc_logs_log_group.a
  id = "y"
}`},
			want: []diagWant{errAt(`Duplicate import configuration for "awscc_logs_log_group.a"`, "other.tf:1:1")},
		},
		"ImportProviderNotOnResource": {
			reason: "only the resource block chooses the provider configuration",
			files: files{"main.tf": importTarget + `import {
  to       = awscc_logs_log_group.a
  id       = "x"
  provider = awscc.west
}`},
			want: []diagWant{errAt("Invalid import provider argument", "main.tf:8:3")},
		},
		"ImportProviderDisagrees": {
			files: files{"main.tf": importTarget + `provider "awscc" { alias = "east" }
import {
  to       = awscc_logs_log_group.w
  id       = "x"
  provider = awscc.east
}`},
			want: []diagWant{errAt("Invalid import provider argument", "main.tf:9:3")},
		},
	}
}

// TestImportBlocks checks what valid import blocks decode to.
func TestImportBlocks(t *testing.T) {
	mod := mustLoad(t, map[string]string{"main.tf": importTarget + `import {
  to = awscc_logs_log_group.a
  id = "one"
}
import {
  to       = awscc_logs_log_group.w["k"]
  id       = 42
  provider = awscc.west
}
import {
  for_each = toset(["p", "q"])
  to       = awscc_logs_log_group.w[each.key]
  id       = "x-${each.value}"
}
`})
	want := []struct {
		target, to string
		static     bool
	}{
		{"awscc_logs_log_group.a", "awscc_logs_log_group.a", true},
		{"awscc_logs_log_group.w", `awscc_logs_log_group.w["k"]`, true},
		{"awscc_logs_log_group.w", "", false},
	}
	if len(mod.Imports) != len(want) {
		t.Fatalf("got %d imports, want %d", len(mod.Imports), len(want))
	}
	for i, w := range want {
		imp := mod.Imports[i]
		if imp.Target.String() != w.target || imp.Static != w.static || (w.static && imp.To.String() != w.to) {
			t.Errorf("import %d: got target=%s to=%s static=%v, want %s %s %v", i, imp.Target, imp.To, imp.Static, w.target, w.to, w.static)
		}
		if imp.Target.Resource.Mode != addrs.ManagedResourceMode || imp.IDExpr == nil {
			t.Errorf("import %d: not a managed resource, or no id", i)
		}
	}
	if mod.Imports[2].ForEach == nil {
		t.Errorf("for_each not decoded")
	}
	if ref := mod.Imports[1].ProviderConfigRef; ref == nil || ref.Alias != "west" {
		t.Errorf("provider argument not decoded: %+v", ref)
	}
}
