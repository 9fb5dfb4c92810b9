package planning

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/marks"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// target is one resource instance object being planned, with what every
// step needs to talk to its provider.
type target struct {
	addr     addrs.AbsResourceInstance
	deposed  addrs.DeposedKey
	pAddr    addrs.AbsProviderConfig
	provider providers.Interface
	schema   *configschema.Block
	version  int64
}

// priorObject decodes a stored object through the provider's
// UpgradeResourceState, checks the result and re-applies sensitive marks
// (from state and from the schema).
func (p *planner) priorObject(ctx context.Context, t *target, src *states.ObjectSrc) (*states.Object, diags.Diagnostics) {
	resp := t.provider.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{
		TypeName: t.addr.Resource.Resource.Type, Version: int64(src.SchemaVersion), RawJSON: src.AttrsJSON,
	})
	ds := resp.Diagnostics.WithAddressOf(t.addr)
	if ds.HasErrors() {
		return nil, ds
	}
	val := resp.UpgradedState
	if errs := val.Type().TestConformance(t.schema.ImpliedType()); len(errs) > 0 {
		return nil, ds.Append(p.contractError("Provider produced invalid object", t,
			fmt.Sprintf("upgrading the stored object produced a value that does not conform to the schema: %s", errs[0])))
	}
	if errs := objchange.AssertWhollyKnown(val); len(errs) > 0 {
		return nil, ds.Append(p.contractError("Provider produced invalid object", t,
			fmt.Sprintf("upgrading the stored object produced an unknown value at %s", errs[0])))
	}
	obj := &states.Object{
		Value: markPaths(t.schema.MarkSensitive(val), src.AttrSensitivePaths), Private: src.Private, Status: src.Status,
		Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy,
	}
	return obj, ds
}

// refresh reads the remote object behind obj. It returns nil when the
// object no longer exists. The refreshed object replaces the stored one in
// the plan's prior state when the provider reports a different value.
func (p *planner) refresh(ctx context.Context, t *target, obj *states.Object, src *states.ObjectSrc) (*states.Object, diags.Diagnostics) {
	if p.opts.SkipRefresh {
		return obj, nil
	}
	if p.opts.OnRefresh != nil {
		p.opts.OnRefresh(t.addr, t.deposed, obj.Value)
	}
	priorU, priorMarks := marks.Unmark(obj.Value)
	resp := t.provider.ReadResource(ctx, providers.ReadResourceRequest{
		TypeName: t.addr.Resource.Resource.Type, PriorState: priorU, Private: obj.Private,
		ProviderMeta: cty.NullVal(cty.DynamicPseudoType),
	})
	ds := resp.Diagnostics.WithAddressOf(t.addr)
	if ds.HasErrors() {
		return nil, ds
	}
	newVal := resp.NewState
	if newVal.IsNull() {
		p.setRefreshed(t.addr, t.deposed, nil, t.pAddr)
		return nil, ds
	}
	if errs := newVal.Type().TestConformance(t.schema.ImpliedType()); len(errs) > 0 {
		return nil, ds.Append(p.contractError("Provider produced invalid object", t,
			fmt.Sprintf("reading the object produced a value that does not conform to the schema: %s", errs[0])))
	}
	if errs := objchange.AssertWhollyKnown(newVal); len(errs) > 0 {
		return nil, ds.Append(p.contractError("Provider produced invalid object", t,
			fmt.Sprintf("reading the object produced an unknown value at %s", errs[0])))
	}
	if newVal.RawEquals(priorU) && string(resp.Private) == string(obj.Private) {
		return obj, ds
	}
	refreshed := &states.Object{
		Value: t.schema.MarkSensitive(newVal.MarkWithPaths(priorMarks)), Private: resp.Private, Status: obj.Status,
		Dependencies: obj.Dependencies, CreateBeforeDestroy: obj.CreateBeforeDestroy,
	}
	newSrc, err := eval.EncodeObject(t.schema, refreshed, t.version)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Failed to record refreshed object", "%s: %s.", t.addr, err))
	}
	p.setRefreshed(t.addr, t.deposed, newSrc, t.pAddr)
	return refreshed, ds
}

// contractError words a provider contract violation for the user: which
// provider, which instance, what was wrong, and whose bug it is.
func (p *planner) contractError(summary string, t *target, what string) diags.Diagnostic {
	return contractDiag(summary, t.pAddr.Provider, t.addr, what)
}

func contractDiag(summary string, provider addrs.Provider, addr addrs.AbsResourceInstance, what string) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  summary,
		Detail: fmt.Sprintf("Provider %q produced an invalid result for %s: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
			provider.String(), addr, what),
		Address: addr.String(),
	}
}

// markPaths adds the sensitive mark at each path.
func markPaths(v cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 {
		return v
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, path := range paths {
		pvm[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(configschema.SensitiveMark)}
	}
	return v.MarkWithPaths(pvm)
}
