package render

import (
	"github.com/cairn-iac/cairn/internal/plans"
	tfjson "github.com/hashicorp/terraform-json"
)

// checksJSON returns the plan's check block results as Terraform's JSON
// plan "checks" lists them: one entry per check block in configuration,
// with an instance per module instance, in plan order, in which the
// instances of one block are adjacent.
func checksJSON(results []*plans.CheckResult) []tfjson.CheckResultStatic {
	var out []tfjson.CheckResultStatic
	var status []plans.CheckStatus // of each entry of out
	for _, r := range results {
		static := r.Addr.ConfigString()
		if n := len(out); n == 0 || out[n-1].Address.ToDisplay != static {
			addr := tfjson.CheckStaticAddress{ToDisplay: static, Kind: tfjson.CheckKindCheckBlock, Name: r.Addr.Check.Name}
			if m := r.Addr.Module.Module(); !m.IsRoot() {
				addr.Module = m.String()
			}
			out = append(out, tfjson.CheckResultStatic{Address: addr})
			status = append(status, plans.CheckPass)
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
		n := len(out) - 1
		out[n].Instances = append(out[n].Instances, inst)
		status[n] = status[n].Worse(r.Status)
		out[n].Status = tfjson.CheckStatus(status[n].String())
	}
	return out
}
