package render

import (
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
)

// terraformChecks is the "checks" array `terraform show -json` (1.5.7)
// wrote for a plan of four check blocks: one passing, one failing, one
// whose assertion was unknown, and one whose scoped data source
// (terraform_remote_state of a missing file) could not be read.
const terraformChecks = `[
{"address": {"kind": "check", "name": "fail", "to_display": "check.fail"}, "instances": [{"address": {"to_display": "check.fail"}, "problems": [{"message": "input is not bye"}], "status": "fail"}], "status": "fail"},
{"address": {"kind": "check", "name": "pass", "to_display": "check.pass"}, "instances": [{"address": {"to_display": "check.pass"}, "status": "pass"}], "status": "pass"},
{"address": {"kind": "check", "name": "scoped", "to_display": "check.scoped"}, "instances": [{"address": {"to_display": "check.scoped"}, "problems": [{"message": "Unable to find remote state: No stored state was found for the given workspace in the given backend."}], "status": "fail"}], "status": "fail"},
{"address": {"kind": "check", "name": "unknown", "to_display": "check.unknown"}, "instances": [{"address": {"to_display": "check.unknown"}, "status": "unknown"}], "status": "unknown"}
]`

func TestChecksJSONMatchesTerraform(t *testing.T) {
	root := func(name string) addrs.AbsCheck { return addrs.Check{Name: name}.Absolute(addrs.RootModuleInstance) }
	results := []*plans.CheckResult{
		{Addr: root("fail"), Status: plans.CheckFail, Problems: []string{"input is not bye"}},
		{Addr: root("pass"), Status: plans.CheckPass},
		{Addr: root("scoped"), Status: plans.CheckFail, Problems: []string{
			"Unable to find remote state: No stored state was found for the given workspace in the given backend."}},
		{Addr: root("unknown"), Status: plans.CheckUnknown},
	}
	var want []tfjson.CheckResultStatic
	if err := json.Unmarshal([]byte(terraformChecks), &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, checksJSON(results)); diff != "" {
		t.Errorf("checksJSON() differs from Terraform's (-want +got):\n%s", diff)
	}
}

// TestChecksJSONModuleInstances: a check in a module with several
// instances is one entry, whose status is the worst of its instances'.
func TestChecksJSONModuleInstances(t *testing.T) {
	inst := func(key string) addrs.ModuleInstance {
		return addrs.ModuleInstance{{Name: "m", Key: addrs.StringKey(key)}}
	}
	c := addrs.Check{Name: "c"}
	got := checksJSON([]*plans.CheckResult{
		{Addr: c.Absolute(inst("a")), Status: plans.CheckPass},
		{Addr: c.Absolute(inst("b")), Status: plans.CheckFail, Problems: []string{"no"}},
		{Addr: c.Absolute(inst("c")), Status: plans.CheckUnknown},
	})
	want := []tfjson.CheckResultStatic{{
		Address: tfjson.CheckStaticAddress{ToDisplay: "module.m.check.c", Kind: tfjson.CheckKindCheckBlock, Module: "module.m", Name: "c"},
		Status:  tfjson.CheckStatusFail,
		Instances: []tfjson.CheckResultDynamic{
			{Address: tfjson.CheckDynamicAddress{ToDisplay: `module.m["a"].check.c`, Module: `module.m["a"]`}, Status: tfjson.CheckStatusPass},
			{Address: tfjson.CheckDynamicAddress{ToDisplay: `module.m["b"].check.c`, Module: `module.m["b"]`}, Status: tfjson.CheckStatusFail,
				Problems: []tfjson.CheckResultProblem{{Message: "no"}}},
			{Address: tfjson.CheckDynamicAddress{ToDisplay: `module.m["c"].check.c`, Module: `module.m["c"]`}, Status: tfjson.CheckStatusUnknown},
		},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
