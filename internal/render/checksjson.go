package render

import (
	"github.com/cairn-iac/cairn/internal/plans"
	tfjson "github.com/hashicorp/terraform-json"
)

// checksJSON returns the plan's check block results as Terraform's JSON
// plan "checks" lists them: one entry per check block in configuration,
// with an instance per module instance, in address order. Checks come
// sorted by address, so the instances of one block are adjacent.
func checksJSON(results []*plans.CheckResult) []tfjson.CheckResultStatic {
	var out []tfjson.CheckResultStatic
	for _, r := range results {
		static := r.Addr.ConfigString()
		if n := len(out); n == 0 || out[n-1].Address.ToDisplay != static {
			addr := tfjson.CheckStaticAddress{ToDisplay: static, Kind: tfjson.CheckKindCheckBlock, Name: r.Addr.Check.Name}
			if m := r.Addr.Module.Module(); !m.IsRoot() {
				addr.Module = m.String()
			}
			out = append(out, tfjson.CheckResultStatic{Address: addr, Status: tfjson.CheckStatusPass})
		}
		inst := tfjson.CheckResultDynamic{
			Address: tfjson.CheckDynamicAddress{ToDisplay: r.Addr.String()},
			Status:  tfjson.CheckStatus(r.Status.String()),
		}
		if !r.Addr.Module.IsRoot() {
			inst.Address.Module = r.Addr.Module.String()
		}
		for _, msg := range r.Problems {
			inst.Problems = append(inst.Problems, tfjson.CheckResultProblem{Message: msg})
		}
		last := &out[len(out)-1]
		last.Instances = append(last.Instances, inst)
		last.Status = worseStatus(last.Status, inst.Status)
	}
	return out
}

// worseStatus combines instance statuses as Terraform does for the
// block's: an error outweighs a failure, which outweighs an unknown.
func worseStatus(a, b tfjson.CheckStatus) tfjson.CheckStatus {
	rank := func(s tfjson.CheckStatus) int {
		switch s {
		case tfjson.CheckStatusError:
			return 3
		case tfjson.CheckStatusFail:
			return 2
		case tfjson.CheckStatusUnknown:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
