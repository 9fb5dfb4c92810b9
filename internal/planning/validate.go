package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// RequiredProviders lists every provider the configuration uses.
func RequiredProviders(cfg *configs.Module) []addrs.Provider {
	return usedProviders(cfg, nil)
}

// Validate checks a configuration without variables or state: references
// resolve, there are no cycles, every resource type exists, and every
// expression and body type-checks when all values are unknown. Providers
// validate their resources' bodies too.
func Validate(ctx context.Context, cfg *configs.Module, reg providers.Registry, funcs map[string]function.Function) diags.Diagnostics {
	schemas, ds := providers.LoadSchemas(ctx, reg, usedProviders(cfg, nil))
	if ds.HasErrors() {
		return ds
	}
	ds = ds.Append(checkResourceTypes(cfg, schemas))
	env := &eval.Env{Funcs: funcs, ModuleDir: cfg.SourceDir, Workspace: "default", Prepared: eval.NewPreparedCache()}
	_, gds := buildConfigGraph(cfg, nil, schemas, env.PreparedBlock)
	ds = ds.Append(gds)
	if ds.HasErrors() {
		return ds
	}
	scope := &lang.Scope{Data: unknownData{}, Funcs: funcs, ModuleDir: cfg.SourceDir, Workspace: "default",
		Repetition: lang.Repetition{CountIndex: cty.UnknownVal(cty.Number), EachKey: cty.UnknownVal(cty.String), EachValue: cty.DynamicVal}}
	for _, name := range sortedKeys(cfg.Locals) {
		_, lds := scope.EvalExpr(cfg.Locals[name].Expr, cty.DynamicPseudoType)
		ds = ds.Append(lds)
	}
	for _, name := range sortedKeys(cfg.Outputs) {
		_, ods := scope.EvalExpr(cfg.Outputs[name].Expr, cty.DynamicPseudoType)
		ds = ds.Append(ods)
	}
	for _, m := range []map[string]*configs.Resource{cfg.ManagedResources, cfg.DataResources} {
		for _, key := range sortedKeys(m) {
			ds = ds.Append(validateResource(ctx, m[key], scope, reg, schemas, env))
		}
	}
	return ds
}

// validateResource decodes a resource body with unknown values and lets
// its provider check it.
func validateResource(ctx context.Context, r *configs.Resource, scope *lang.Scope, reg providers.Registry, schemas providers.Schemas, env *eval.Env) diags.Diagnostics {
	schema, _ := schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	if schema == nil {
		return nil
	}
	s := *scope
	if r.Count == nil {
		s.Repetition.CountIndex = cty.NilVal
	}
	if r.ForEach == nil {
		s.Repetition.EachKey, s.Repetition.EachValue = cty.NilVal, cty.NilVal
	}
	val, ds := s.EvalPrepared(env.PreparedBlock(r, schema))
	if ds.HasErrors() {
		return ds
	}
	f, fds := reg.Factory(r.Provider)
	if f == nil {
		return ds.Append(fds)
	}
	p, err := f()
	if err != nil {
		return ds.Append(diags.Errorf("Failed to start provider", "%s: %s.", r.Provider.ForDisplay(), err))
	}
	defer p.Close()
	config := marks.Strip(val)
	var vds diags.Diagnostics
	if r.Mode == addrs.DataResourceMode {
		vds = p.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: r.Type, Config: config}).Diagnostics
	} else {
		vds = p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: r.Type, Config: config}).Diagnostics
	}
	return ds.Append(vds.InBody(r.Config, r.DeclRange))
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
