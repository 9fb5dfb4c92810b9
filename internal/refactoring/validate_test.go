package refactoring

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
)

// staticInstances expands every module once (unkeyed) and every resource
// to the keys given, or the unkeyed instance.
type staticInstances map[string][]addrs.InstanceKey

func (staticInstances) ModuleInstances(m addrs.Module) []addrs.ModuleInstance {
	return []addrs.ModuleInstance{m.UnkeyedInstance()}
}

func (s staticInstances) ResourceInstanceKeys(r addrs.AbsResource) []addrs.InstanceKey {
	if keys, ok := s[r.String()]; ok {
		return keys
	}
	return []addrs.InstanceKey{addrs.NoKey}
}

func summarize(ds diags.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		at := ""
		if d.Subject != nil {
			at = fmt.Sprintf(" at %s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, d.Summary+at)
	}
	return out
}

func TestValidateMoves(t *testing.T) {
	tests := map[string]struct {
		reason string
		config string
		inst   staticInstances
		want   []string
		// detail, when set, is the first diagnostic's detail as
		// Terraform 1.5.7 words it.
		detail string
	}{
		"Rename": {
			config: "resource \"terraform_data\" \"b\" {}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}",
		},
		"Cycle": {
			reason: "Terraform's cycle diagnostic has no source range; its detail lists the statements",
			config: "moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\nmoved {\n  from = terraform_data.b\n  to   = terraform_data.a\n}",
			want:   []string{"Cyclic dependency in move statements"},
		},
		"CollidingTargets": {
			config: "moved {\n  from = terraform_data.a\n  to   = terraform_data.c\n}\nmoved {\n  from = terraform_data.b\n  to   = terraform_data.c\n}",
			want:   []string{"Ambiguous move statements at main.tf:5:1"},
		},
		"TwoDestinations": {
			config: "moved {\n  from = terraform_data.a\n  to   = terraform_data.c\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.d\n}",
			want:   []string{"Ambiguous move statements at main.tf:5:1"},
		},
		"StillDeclared": {
			reason: "cycles are not looked for once a statement is invalid, as in Terraform",
			config: "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\nmoved {\n  from = terraform_data.b\n  to   = terraform_data.a\n}",
			want:   []string{"Moved object still exists at main.tf:3:1", "Moved object still exists at main.tf:7:1"},
		},
		"InstanceNoLongerDeclared": {
			reason: "count = 1 no longer declares [1], so it may move",
			config: "resource \"terraform_data\" \"a\" {\n  count = 1\n}\nmoved {\n  from = terraform_data.a[1]\n  to   = terraform_data.b\n}",
			inst:   staticInstances{"terraform_data.a": {addrs.IntKey(0)}},
		},
		"InstanceStillDeclared": {
			config: "resource \"terraform_data\" \"a\" {\n  count = 1\n}\nmoved {\n  from = terraform_data.a[0]\n  to   = terraform_data.b\n}",
			inst:   staticInstances{"terraform_data.a": {addrs.IntKey(0)}},
			want:   []string{"Moved object still exists at main.tf:4:1"},
			detail: "This statement declares a move from terraform_data.a[0], but that resource instance is still declared at main.tf:2,11.\n\nChange your configuration so that this instance will be declared as terraform_data.b instead.",
		},
		"InstancesCollide": {
			config: "moved {\n  from = terraform_data.x[0]\n  to   = terraform_data.z[0]\n}\nmoved {\n  from = terraform_data.y[0]\n  to   = terraform_data.z[0]\n}",
			want:   []string{"Ambiguous move statements at main.tf:5:1"},
			detail: "A statement at main.tf:1,1 declared that terraform_data.x[0] moved to terraform_data.z[0], but this statement instead declares that terraform_data.y[0] moved there.\n\nEach resource instance can have moved from only one source instance.",
		},
		"AcrossModules": {
			reason: "a parent's move into a child collides with the child's own move to the same place, as Terraform sees it",
			config: "module \"a\" {\n  source = \"./m\"\n}\nmoved {\n  from = terraform_data.r\n  to   = module.a.terraform_data.y\n}",
			want:   []string{"Ambiguous move statements at m/main.tf:2:1", "Moved object still exists at m/main.tf:2:1"},
			detail: "A statement at main.tf:4,1 declared that terraform_data.r moved to module.a.terraform_data.y, but this statement instead declares that module.a.terraform_data.x moved there.\n\nEach resource can have moved from only one source resource.",
		},
		"ModuleCallStillDeclared": {
			config: "module \"a\" {\n  source = \"./m\"\n}\nmoved {\n  from = module.a\n  to   = module.b\n}",
			want:   []string{"Moved object still exists at main.tf:4:1", "Moved object still exists at m/main.tf:2:1"},
		},
		"ChildModuleStatement": {
			reason: "a child's statement is checked against the child's resources",
			config: "module \"a\" {\n  source = \"./m\"\n}",
			want:   []string{"Moved object still exists at m/main.tf:2:1"},
		},
	}
	child := "resource \"terraform_data\" \"x\" {}\nmoved {\n  from = terraform_data.x\n  to   = terraform_data.y\n}"
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir+"/main.tf", tc.config)
			writeFile(t, dir+"/m/main.tf", child)
			root, ds := configs.LoadDir(dir)
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			ds = ValidateMoves(FindMoveStatements(root), root, tc.inst)
			if diff := cmp.Diff(tc.want, summarize(ds)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if tc.detail != "" && len(ds) > 0 {
				if diff := cmp.Diff(tc.detail, ds[0].Detail); diff != "" {
					t.Errorf("detail -want +got:\n%s", diff)
				}
			}
		})
	}
}
