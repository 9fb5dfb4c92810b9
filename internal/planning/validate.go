package planning

import (
	"context"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Validate checks a configuration without variables or state: references
// resolve, there are no cycles, every resource type exists, and every
// expression and body type-checks when all values are unknown. Providers
// validate their resources' bodies too, each through one unconfigured
// instance per provider configuration, as Terraform validates.
func Validate(ctx context.Context, cfg *configs.Module, lib *providers.Library, funcs map[string]function.Function) diags.Diagnostics {
	schemas, ds := lib.Schemas(ctx, cfg.Providers())
	if ds.HasErrors() {
		return ds
	}
	ds = ds.Append(checkResourceTypes(cfg, schemas))
	_, mds := eval.DecodeProviderMetas(addrs.RootModule, cfg, schemas)
	ds = ds.Append(mds)
	env := &eval.Env{Funcs: funcs, ModuleDir: cfg.SourceDir, Workspace: "default", Prepared: eval.NewPreparedCache()}
	_, gds := buildConfigGraph(cfg, nil, schemas, env.PreparedBlock)
	ds = ds.Append(gds)
	if ds.HasErrors() {
		return ds
	}
	set := lib.NewInstanceSet(ctx)
	defer set.Close()
	cfg.Walk(func(mod *configs.Module) {
		scope := &lang.Scope{Data: unknownData{}, Funcs: funcs, ModuleDir: cfg.SourceDir, Workspace: "default",
			Repetition: lang.Repetition{CountIndex: cty.UnknownVal(cty.Number), EachKey: cty.UnknownVal(cty.String), EachValue: cty.DynamicVal}}
		ds = ds.Append(validateModule(mod, scope, &validator{ctx: ctx, set: set, schemas: schemas, env: env, scope: scope}))
	})
	return ds
}

// validateModule evaluates one module's locals, outputs and resource
// bodies with every value unknown.
func validateModule(mod *configs.Module, scope *lang.Scope, v *validator) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(mod.Locals)) {
		_, lds := scope.EvalExpr(mod.Locals[name].Expr, cty.DynamicPseudoType)
		ds = ds.Append(lds)
	}
	for _, name := range slices.Sorted(maps.Keys(mod.Outputs)) {
		o := mod.Outputs[name]
		_, ods := scope.EvalExpr(o.Expr, cty.DynamicPseudoType)
		ds = ds.Append(ods, checkRuleExprs(scope, o.Preconditions))
	}
	for _, m := range []map[string]*configs.Resource{mod.ManagedResources, mod.DataResources} {
		for _, key := range slices.Sorted(maps.Keys(m)) {
			ds = ds.Append(v.resource(m[key], mod.Path))
		}
	}
	return ds
}

// validator checks resource bodies with unknown values.
type validator struct {
	ctx     context.Context
	set     *providers.InstanceSet
	schemas providers.Schemas
	env     *eval.Env
	scope   *lang.Scope
}

// resource decodes a resource body with unknown values and lets its
// provider check it.
func (v *validator) resource(r *configs.Resource, path addrs.Module) diags.Diagnostics {
	schema, version := v.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	if schema == nil {
		return nil
	}
	s := *v.scope
	if r.Count == nil {
		s.Repetition.CountIndex = cty.NilVal
	}
	if r.ForEach == nil {
		s.Repetition.EachKey, s.Repetition.EachValue = cty.NilVal, cty.NilVal
	}
	val, ds := s.EvalPrepared(v.env.PreparedBlock(r, schema))
	ds = ds.Append(checkRuleExprs(&s, r.Preconditions))
	post := s
	post.Self = cty.UnknownVal(schema.ImpliedType())
	ds = ds.Append(checkRuleExprs(&post, r.Postconditions))
	if ds.HasErrors() {
		return ds
	}
	pAddr := r.ProviderConfigAddr()
	inst, err := v.set.Get(pAddr)
	if err != nil {
		if uds := v.set.Unconfigured(pAddr); uds.HasErrors() {
			return ds.Append(uds)
		}
		inst, _ = v.set.Get(pAddr)
	}
	t := &lifecycle.Target{
		Addr: r.Addr().Instance(addrs.NoKey).Absolute(path.UnkeyedInstance()).Object(addrs.NotDeposed), Provider: inst,
		ProviderAddr: r.Provider, Schema: schema, SchemaVersion: version, Body: r.Config, DeclRange: r.DeclRange,
	}
	// The diagnostics name the resource block (the NoKey instance's
	// address is the block's), as Terraform's validate does.
	return ds.Append(lifecycle.ValidateConfig(v.ctx, t, val))
}

// checkRuleExprs evaluates the conditions and error messages of rules with
// every value unknown, as Terraform's validate does: it finds expressions
// that can never be evaluated (a misspelled attribute of self, a wrong
// function call) but decides no condition, since no value is known yet.
func checkRuleExprs(scope *lang.Scope, rules []*configs.CheckRule) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, rule := range rules {
		_, cds := scope.EvalExpr(rule.Condition, cty.DynamicPseudoType)
		_, mds := scope.EvalExpr(rule.ErrorMessage, cty.DynamicPseudoType)
		ds = ds.Append(cds, mds)
	}
	return ds
}

// unknownData answers every reference with an unknown value.
type unknownData struct{}

func (unknownData) InputVariable(addrs.InputVariable, hcl.Range) (cty.Value, diags.Diagnostics) {
	return cty.DynamicVal, nil
}

func (unknownData) LocalValue(addrs.LocalValue, hcl.Range) (cty.Value, diags.Diagnostics) {
	return cty.DynamicVal, nil
}

func (unknownData) Resource(addrs.Resource, hcl.Range) (cty.Value, diags.Diagnostics) {
	return cty.DynamicVal, nil
}

func (unknownData) ModuleCall(addrs.ModuleCall, hcl.Range) (cty.Value, diags.Diagnostics) {
	return cty.DynamicVal, nil
}
