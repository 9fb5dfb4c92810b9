package planning

import (
	"context"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// planForget plans dropping an object from state without destroying it,
// as a removed block with destroy = false asks. The object is refreshed
// first, like one planned for deletion, so a vanished one is just gone.
func (p *planner) planForget(ctx context.Context, out *records, t *lifecycle.Target, pAddr addrs.AbsProviderConfig, src *states.ObjectSrc) diags.Diagnostics {
	obj, ds := p.readPrior(ctx, out, t, pAddr, src)
	if ds.HasErrors() || obj == nil {
		return ds
	}
	c := &plans.ResourceInstanceChange{
		Addr: t.Addr.ResourceInstance, DeposedKey: t.Addr.DeposedKey, Provider: pAddr, Action: plans.Forget,
		Before: obj.Value, After: cty.NullVal(t.Schema.ImpliedType()), Private: obj.Private, SchemaVersion: t.SchemaVersion,
	}
	if t.Addr.DeposedKey == addrs.NotDeposed {
		// The reason a deletion of the same object would have: OpenTofu
		// 1.12 records it on a forget too.
		c.ActionReason = plans.ReasonDeleteBecauseNoResourceConfig
	}
	p.record(out, c)
	return ds
}

// planForgetInstance plans forgetting every object of one instance.
func (p *planner) planForgetInstance(ctx context.Context, out *records, rt *resourceTarget, pAddr addrs.AbsProviderConfig, key addrs.InstanceKey, is *states.ResourceInstance) diags.Diagnostics {
	if ds := p.resolveInstanceProvider(rt, key, firstObject(is)); ds.HasErrors() {
		return ds
	}
	rt = rt.forKey(key)
	pAddr = rt.providerAddr(key)
	var ds diags.Diagnostics
	if is.Current != nil {
		ds = ds.Append(p.planForget(ctx, out, rt.target(key, addrs.NotDeposed), pAddr, is.Current))
	}
	for _, dk := range is.SortedDeposedKeys() {
		ds = ds.Append(p.planForget(ctx, out, rt.target(key, dk), pAddr, is.Deposed[dk]))
	}
	return ds
}

// forgetWarning is Terraform 1.7's warning listing the objects a plan
// forgets, or nothing when it forgets none.
func forgetWarning(changes []*plans.ResourceInstanceChange) diags.Diagnostics {
	var forgotten []addrs.AbsResourceInstanceObject
	for _, c := range changes {
		if c.Action == plans.Forget {
			forgotten = append(forgotten, c.ObjectAddr())
		}
	}
	if len(forgotten) == 0 {
		return nil
	}
	// Changes are recorded in the order planning finished them.
	sort.Slice(forgotten, func(i, j int) bool { return forgotten[i].Less(forgotten[j]) })
	var b strings.Builder
	for _, o := range forgotten {
		b.WriteString("\n - " + o.String())
	}
	return diags.Diagnostics{{
		Severity: diags.Warning,
		Summary:  "Some objects will no longer be managed by Terraform",
		Detail: "If you apply this plan, Terraform will discard its tracking information for the following objects, but it will not delete them:" +
			b.String() + "\n\nAfter applying this plan, Terraform will no longer manage these objects. You will need to import them into Terraform to manage them again.",
	}}
}
