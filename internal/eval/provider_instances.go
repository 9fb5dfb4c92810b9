package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2"
	"golang.org/x/sync/errgroup"
)

// providerConfigureLimit bounds how many instances of one provider
// configuration with for_each are configured at once: each may start a
// plugin process, and a map of regions is usually a few dozen keys.
const providerConfigureLimit = 10

// ProviderInstances evaluates the for_each of provider block cfg of addr:
// one instance per key (OpenTofu 1.9). As in OpenTofu the keys must be
// known before planning anything, so the expression may refer only to
// variables, locals that do the same, path and terraform (StaticRefs);
// an unknown or sensitive value is an error.
func (e *Env) ProviderInstances(addr addrs.AbsProviderConfig, cfg *configs.Provider) (*instances.Expansion, diags.Diagnostics) {
	mod := e.moduleConfig(addr.Module)
	if ds := StaticRefs(mod, cfg.StaticSubject(addr.Module), cfg.ForEach); ds.HasErrors() {
		return nil, ds
	}
	return ExpandRepetition(e.Scope(addr.Module.UnkeyedInstance()), nil, cfg.ForEach, false)
}

// configureInstances configures one instance of a provider configuration
// with for_each per key, a few at a time, each with its own each.key and
// each.value. Every instance's diagnostics are reported.
func configureInstances(set *providers.InstanceSet, addr addrs.AbsProviderConfig, cfg *configs.Provider, schema *configschema.Block, env *Env) diags.Diagnostics {
	exp, ds := env.ProviderInstances(addr, cfg)
	if ds.HasErrors() {
		return ds
	}
	keys := exp.Keys()
	results := make([]diags.Diagnostics, len(keys))
	var g errgroup.Group
	g.SetLimit(providerConfigureLimit)
	for i, key := range keys {
		g.Go(func() error {
			scope := env.Scope(addr.Module.UnkeyedInstance())
			scope.Repetition.CountIndex, scope.Repetition.EachKey, scope.Repetition.EachValue = exp.Repetition(key)
			results[i] = configureWith(set, addr.Instance(key), cfg, schema, env, scope)
			return nil
		})
	}
	_ = g.Wait() // the goroutines report through results, never an error
	for _, r := range results {
		ds = ds.Append(r)
	}
	return ds
}

// moduleConfig returns the configuration of module path m, or nil.
func (e *Env) moduleConfig(m addrs.Module) *configs.Module {
	if e.Config == nil {
		return nil
	}
	return e.Config.Descendant(m)
}

// StaticRefs checks that expr, which subject (for messages, such as
// provider.aws.by_region.for_each) must evaluate before planning, refers
// only to what OpenTofu's static evaluation offers: input variables,
// locals whose own expressions do the same, path and terraform. mod is
// the module expr is written in (nil: no locals are followed). The
// diagnostics are OpenTofu 1.12.6's.
func StaticRefs(mod *configs.Module, subject string, expr hcl.Expression) diags.Diagnostics {
	return staticRefs(mod, subject, expr, map[string]bool{})
}

func staticRefs(mod *configs.Module, subject string, expr hcl.Expression, seen map[string]bool) diags.Diagnostics {
	refs, ds := lang.ReferencesInExpr(expr)
	if ds.HasErrors() {
		return ds
	}
	for _, ref := range refs {
		switch sub := ref.Subject.(type) {
		case addrs.InputVariable, addrs.PathAttr, addrs.TerraformAttr:
		case addrs.LocalValue:
			ds = ds.Append(staticLocal(mod, subject, sub, ref.SourceRange, seen))
		case addrs.ModuleCall, addrs.ModuleCallOutput:
			ds = ds.Append(diags.At(ref.SourceRange, "Module output not supported in static context",
				fmt.Sprintf("Unable to use %s in static context, which is required by %s", sub, subject)))
		default:
			ds = ds.Append(diags.At(ref.SourceRange, "Dynamic value in static context",
				fmt.Sprintf("Unable to use %s in static context, which is required by %s", sub, subject)))
		}
	}
	return ds
}

// staticLocal checks the expression of a local a static expression refers
// to; a local that is not static makes the referring expression not
// static either, which OpenTofu reports as a second error.
func staticLocal(mod *configs.Module, subject string, sub addrs.LocalValue, rng hcl.Range, seen map[string]bool) diags.Diagnostics {
	if mod == nil || seen[sub.Name] {
		return nil // an undeclared local or a cycle is reported where it is evaluated
	}
	l := mod.Locals[sub.Name]
	if l == nil {
		return nil
	}
	seen[sub.Name] = true
	ds := staticRefs(mod, sub.String(), l.Expr, seen)
	if ds.HasErrors() {
		ds = ds.Append(diags.At(rng, "Unable to compute static value",
			fmt.Sprintf("%s depends on %s which is not available", subject, sub)))
	}
	return ds
}
