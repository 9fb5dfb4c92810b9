package applying

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// instance is one change being applied, with its lifecycle target.
type instance struct {
	change *plans.ResourceInstanceChange
	config *configs.Resource // nil for objects no longer configured
	target *lifecycle.Target
}

// instance prepares the change node n acts on, for the object obj of it.
func (a *applier) instance(n plans.Node, obj addrs.AbsResourceInstanceObject) (*instance, diags.Diagnostics) {
	c := a.plan.Changes[n.Ref]
	res := c.Addr.Resource.Resource
	schema, version := a.schemas.ResourceTypeSchema(c.Provider.Provider, res.Mode, res.Type)
	if schema == nil {
		return nil, diags.Diagnostics{diags.Errorf("Unknown resource type", "Provider %s has no schema for %s.", c.Provider.Provider.ForDisplay(), c.Addr)}
	}
	p, err := a.set.Get(c.Provider)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Provider configuration not available", "%s: %s.", c.Addr, err)}
	}
	in := &instance{change: c, target: &lifecycle.Target{
		Addr: obj, Provider: p, ProviderAddr: c.Provider.Provider, Schema: schema, SchemaVersion: version,
		ProviderMeta: a.metas.For(c.Addr.Module.Module(), c.Provider.Provider), ProviderConfig: a.set.Config(c.Provider),
	}}
	if mod := a.moduleConfig(c.Addr.Module.Module()); mod != nil {
		in.config = mod.ResourceByAddr(res)
	}
	if in.config != nil {
		in.target.Body, in.target.DeclRange = in.config.Config, in.config.DeclRange
	}
	if a.opts.ResourceProvider != nil {
		in.target.Provider = a.opts.ResourceProvider(c.Addr.ContainingResource(), c.Provider, p)
		if r, ok := in.target.Provider.(providers.InstanceRouter); ok {
			in.target.Provider = r.ForInstance(c.Addr.Resource.Key)
		}
	}
	return in, nil
}

// evalConfig evaluates the instance's configuration as known now, with the
// schema's sensitive marks.
func (a *applier) evalConfig(in *instance) (cty.Value, diags.Diagnostics) {
	addr := in.change.Addr
	exp := a.env.Values.Expansion(addr.ContainingResource())
	val, ds := a.env.InstanceScope(addr, exp).EvalPrepared(a.env.PreparedBlock(in.config, in.target.Schema))
	if ds.HasErrors() {
		return val, ds
	}
	return in.target.Schema.MarkSensitive(val), ds
}

// checkInstance evaluates the instance's preconditions or postconditions
// (self is its new value) in the instance's scope. Most resources have
// none, and then nothing is looked up.
func (a *applier) checkInstance(in *instance, kind eval.CheckKind, self cty.Value) diags.Diagnostics {
	r := in.config
	if len(r.Preconditions) == 0 && len(r.Postconditions) == 0 {
		return nil
	}
	addr := in.change.Addr
	return a.env.CheckInstance(r, addr, a.env.Values.Expansion(addr.ContainingResource()), kind, self)
}

// priorObject returns the instance's object in the plan's prior state:
// the current one, or deposed object dk.
func (a *applier) priorObject(addr addrs.AbsResourceInstanceObject) *states.ObjectSrc {
	return a.plan.PriorState.Object(addr)
}

// setObject hands an object (nil: its removal) to the state writer:
// asynchronously when the writer allows it, returning the wait for
// durability, or synchronously with a nil wait.
func (a *applier) setObject(c *plans.ResourceInstanceChange, addr addrs.AbsResourceInstanceObject, src *states.ObjectSrc) (wait func() error, err error) {
	if aw, ok := a.opts.State.(AsyncStateWriter); ok {
		return aw.SetObjectAsync(addr, src, c.Provider)
	}
	return nil, a.opts.State.SetObject(addr, src, c.Provider)
}

// persistError reports that addr's object could not be recorded, and
// stops the apply from starting further operations: their results could
// not be recorded either, and objects nobody tracks are what state exists
// to prevent.
func (a *applier) persistError(addr addrs.AbsResourceInstanceObject, err error) diags.Diagnostic {
	a.stateFailed.Store(true)
	return diags.Diagnostic{Severity: diags.Error, Summary: persistSummary,
		Detail: fmt.Sprintf("Recording %s in state failed: %s. No further operations are started. "+
			"The state writer keeps what it was given for the final state; if that cannot be written either, the errors below say where the state was saved instead.", addr, err),
		Address: addr.ResourceInstance.String()}
}

// foldPersistErrors keeps the first "could not record" error whole and
// folds the others into one that names their objects. When the disk is
// full every operation still running fails the same way; hundreds of
// copies would push the errors that say where the state was saved out of
// the shown diagnostics.
func foldPersistErrors(ds diags.Diagnostics) diags.Diagnostics {
	var out diags.Diagnostics
	var rest []string
	seen := false
	for _, d := range ds {
		if d.Severity != diags.Error || d.Summary != persistSummary || d.Address == "" {
			out = append(out, d)
			continue
		}
		if !seen {
			seen = true
			out = append(out, d)
			continue
		}
		rest = append(rest, d.Address)
	}
	if len(rest) == 0 {
		return out
	}
	sort.Strings(rest)
	const shown = 10
	list := strings.Join(rest[:min(len(rest), shown)], ", ")
	if len(rest) > shown {
		list += fmt.Sprintf(" and %d more", len(rest)-shown)
	}
	return append(out, diags.Errorf(persistSummary,
		"%d more objects finished but could not be recorded for the same reason: %s. They are kept for the final state like the one above.", len(rest), list))
}

const persistSummary = "Failed to persist state"

func firstError(ds diags.Diagnostics) error {
	for _, d := range ds {
		if d.Severity == diags.Error {
			return fmt.Errorf("%s", d.Summary)
		}
	}
	return nil
}
