package applying

import (
	"context"
	"slices"

	"github.com/cairn-iac/cairn/internal/instances"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// EphemeralHooks is what Hooks may also implement to be told as
// ephemeral resources are opened, renewed and closed during apply.
type EphemeralHooks interface {
	Ephemeral() lifecycle.EphemeralHook
}

// newEphemerals returns the apply's set of opened ephemeral resources,
// reporting to the hooks when they want it.
func newEphemerals(h Hooks) *lifecycle.Ephemerals {
	if eh, ok := h.(EphemeralHooks); ok {
		return lifecycle.NewEphemerals(eh.Ephemeral())
	}
	return lifecycle.NewEphemerals(nil)
}

// openEphemeral opens every instance of an ephemeral resource, as
// planning did but with apply's values: Terraform carries nothing of them
// from plan to apply. When nothing that calls a provider needs it
// (neededEphemeral), its instances are unknown and nothing is opened, as
// OpenTofu leaves it closed.
func (a *applier) openEphemeral(ctx context.Context, n plans.Node, needed bool) diags.Diagnostics {
	addr := a.plan.Graph.Resources[n.Ref]
	mod := a.moduleConfig(addr.Module.Module())
	if mod == nil {
		return nil
	}
	r := mod.ResourceByAddr(addr.Resource)
	exp := a.env.Values.Expansion(addr)
	if r == nil || exp == nil {
		return nil
	}
	schema, version := a.schemas.ResourceTypeSchema(r.Provider, addrs.EphemeralResourceMode, r.Type)
	if schema == nil {
		return diags.Diagnostics{diags.Errorf("Unknown resource type", "Provider %s has no schema for %s.", r.Provider.ForDisplay(), addr)}
	}
	var ds diags.Diagnostics
	for _, key := range exp.Keys() {
		inst := addr.Instance(key)
		unknown := cty.UnknownVal(schema.ImpliedType()).Mark(marks.Ephemeral)
		a.env.Values.SetInstance(inst, unknown)
		if !needed {
			continue
		}
		t, tds := a.ephemeralTarget(r, inst, exp)
		if ds = ds.Append(tds); tds.HasErrors() {
			continue
		}
		t.Schema, t.SchemaVersion = schema, version
		ds = ds.Append(a.openEphemeralInstance(ctx, r, t, exp))
	}
	return ds
}

// ephemeralTarget finds the provider instance of an ephemeral resource
// instance, as planning found it.
func (a *applier) ephemeralTarget(r *configs.Resource, inst addrs.AbsResourceInstance, exp *instances.Expansion) (*lifecycle.Target, diags.Diagnostics) {
	pAddr, ds := a.env.ResourceProviderInstance(r, inst, exp)
	if ds.HasErrors() {
		return nil, ds
	}
	p, err := a.set.Get(pAddr)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Provider configuration not available", "%s: %s.", inst, err))
	}
	if a.opts.ResourceProvider != nil {
		p = a.opts.ResourceProvider(inst.ContainingResource(), pAddr, p)
		if rt, ok := p.(providers.InstanceRouter); ok {
			p = rt.ForInstance(inst.Resource.Key)
		}
	}
	return &lifecycle.Target{
		Addr: inst.Object(addrs.NotDeposed), Provider: p, ProviderAddr: pAddr.Provider,
		ProviderMeta: a.metas.For(inst.Module.Module(), pAddr.Provider), ProviderConfig: a.set.Config(pAddr),
		Body: r.Config, DeclRange: r.DeclRange,
	}, ds
}

// openEphemeralInstance checks the preconditions, evaluates, validates and
// opens one instance, publishes its value and checks the postconditions.
func (a *applier) openEphemeralInstance(ctx context.Context, r *configs.Resource, t *lifecycle.Target, exp *instances.Expansion) diags.Diagnostics {
	addr := t.Addr.ResourceInstance
	ds := a.env.CheckInstance(r, addr, exp, eval.ResourcePrecondition, cty.NilVal)
	if ds.HasErrors() {
		return ds
	}
	config, cds := a.env.InstanceScope(addr, exp).EvalPrepared(a.env.PreparedBlock(r, t.Schema))
	if ds = ds.Append(cds); cds.HasErrors() {
		return ds
	}
	config = t.Schema.MarkSensitive(config)
	if ds = ds.Append(lifecycle.ValidateConfig(ctx, t, config)); ds.HasErrors() {
		return ds
	}
	if !marks.Strip(config).IsWhollyKnown() {
		// What it needs is not known even now (a value only a later
		// apply will know); what refers to it sees an unknown.
		return ds.Append(a.env.CheckInstance(r, addr, exp, eval.ResourcePostcondition, lifecycle.UnknownEphemeral(t)))
	}
	val, ods := a.ephemerals.Open(ctx, t, config)
	if ds = ds.Append(ods); ods.HasErrors() {
		return ds
	}
	a.env.Values.SetInstance(addr, val)
	return ds.Append(a.env.CheckInstance(r, addr, exp, eval.ResourcePostcondition, val))
}

// usesEphemeral reports whether an operation may need an ephemeral
// resource's value for itself: it calls a provider (write-only
// arguments, conditions), configures one, or decides conditions or
// validation rules planning could not.
func usesEphemeral(op plans.Op) bool {
	switch op {
	case plans.OpConfigureProvider, plans.OpCheckAssertions, plans.OpCheck, plans.OpValidateVariable:
		return true
	}
	return callsProvider(op)
}

// neededEphemeral reports, by resource operand (Node.Ref), whether the
// node opening an ephemeral resource opens an ephemeral
// resource something needs: a node that uses its value (usesEphemeral)
// depends on it, directly or through nodes that do not (locals, module
// outputs, joins). nil when the plan opens
// none, so plans without ephemeral resources pay nothing.
func neededEphemeral(g *plans.Graph) map[int]bool {
	if !slices.ContainsFunc(g.Nodes, func(n plans.Node) bool { return n.Op == plans.OpOpenEphemeral }) {
		return nil
	}
	dependents := make([][]int, len(g.Nodes))
	for j, m := range g.Nodes {
		for _, d := range m.Deps {
			dependents[d] = append(dependents[d], j)
		}
	}
	seen := make([]int8, len(g.Nodes)) // 0 unseen, 1 needed, 2 not
	var needs func(i int) bool
	needs = func(i int) bool {
		if seen[i] != 0 {
			return seen[i] == 1
		}
		seen[i] = 2
		for _, j := range dependents[i] {
			if usesEphemeral(g.Nodes[j].Op) || needs(j) {
				seen[i] = 1
				return true
			}
		}
		return false
	}
	out := map[int]bool{}
	for i, n := range g.Nodes {
		if n.Op == plans.OpOpenEphemeral {
			out[n.Ref] = needs(i)
		}
	}
	return out
}
