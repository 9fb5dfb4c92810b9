package planning

import (
	"context"
	"errors"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Validate checks a configuration without variables or state: references
// resolve and read attributes their resource types have, there are no
// cycles, every resource type exists, and every expression and body
// type-checks when all values are unknown. Providers validate their
// resources' bodies too, each through one unconfigured instance per
// provider configuration, as Terraform validates.
func Validate(ctx context.Context, cfg *configs.Module, lib *providers.Library, funcs map[string]function.Function) diags.Diagnostics {
	schemas, ds := lib.Schemas(ctx, cfg.Providers())
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(validateConfig(ctx, validation{cfg: cfg, lib: lib, schemas: schemas, funcs: funcs, prepared: eval.NewPreparedCache()}))
}

// validation is what a validation walk needs.
type validation struct {
	cfg     *configs.Module
	lib     *providers.Library
	schemas providers.Schemas
	funcs   map[string]function.Function
	// fns, when set, are the function tables to use (the plan's, kept
	// open for its walk); otherwise the validation builds and closes
	// its own.
	fns      *eval.FunctionTables
	prepared *eval.PreparedCache
	// parallelism bounds the walk's concurrent visits; below 1 means 10.
	parallelism int
}

// validateConfig is Terraform's validate walk, which plan, apply and
// destroy also run before they refresh anything: every object of the
// configuration graph is checked in dependency order with every value
// unknown. An object with errors skips the objects that depend on it (they
// would only repeat its errors) but not independent ones, so one run
// reports every independent problem. A cycle stops it before any object.
func validateConfig(ctx context.Context, v validation) diags.Diagnostics {
	cg, _ := buildConfigGraph(v.cfg, nil, v.schemas, (&eval.Env{Prepared: v.prepared}).PreparedBlock)
	return validateGraph(ctx, cg, v)
}

// validateGraph is validateConfig over a graph already built with the
// same prepared cache (planning's, whose resources of prior state that
// the configuration no longer has are not validated).
func validateGraph(ctx context.Context, cg *configGraph, v validation) diags.Diagnostics {
	_, ds := eval.DecodeProviderMetas(addrs.RootModule, v.cfg, v.schemas)
	if fds := checkFunctionCalls(v.cfg, v.schemas); fds.HasErrors() {
		return ds.Append(fds)
	}
	if cg.cycles.HasErrors() {
		return ds.Append(cg.cycles)
	}
	fns := v.fns
	if fns == nil {
		var fds diags.Diagnostics
		if fns, fds = eval.NewFunctionTables(ctx, v.cfg, v.funcs, v.lib); fds.HasErrors() {
			return ds.Append(fds)
		}
		defer fns.Close()
	}
	env := &eval.Env{Funcs: v.funcs, Functions: fns, ModuleDir: v.cfg.SourceDir, Workspace: "default", Prepared: v.prepared}
	set := v.lib.NewInstanceSet(ctx)
	defer set.Close()
	w := &validateWalk{cg: cg, cfg: v.cfg, schemas: v.schemas, set: set, env: env, refs: staticRefChecker{schemas: v.schemas}}
	parallelism := v.parallelism
	if parallelism < 1 {
		parallelism = 10
	}
	// Each vertex returns its diagnostics; they are gathered in vertex
	// order, whatever order the vertices finished in.
	results := make([]diags.Diagnostics, len(cg.vertices))
	res := graph.WalkResults(ctx, cg.g, parallelism, results, func(ctx context.Context, i int) (diags.Diagnostics, error) {
		vds := w.visit(ctx, i)
		if vds.HasErrors() {
			return vds, errVertexFailed
		}
		return vds, nil
	})
	for _, vds := range results {
		ds = ds.Append(vds)
	}
	for _, err := range res.Errors {
		if !errors.Is(err, errVertexFailed) {
			ds = ds.Append(diags.Errorf("Internal error during validation", "%s", err))
		}
	}
	if err := ctx.Err(); err != nil {
		ds = ds.Append(diags.Errorf("Validation interrupted", "The validation was cancelled: %s.", err))
	}
	return ds
}

// validateWalk holds one validation walk; visits run concurrently.
type validateWalk struct {
	cg      *configGraph
	cfg     *configs.Module
	schemas providers.Schemas
	set     *providers.InstanceSet
	env     *eval.Env
	refs    staticRefChecker
}

// visit validates one object. Each expression's references are checked
// before it is evaluated (undeclared objects, attributes their resource
// types lack); one whose references are wrong is not evaluated, but the
// object's other expressions still are, as in Terraform.
func (w *validateWalk) visit(ctx context.Context, i int) diags.Diagnostics {
	v := w.cg.vertices[i]
	if v.kind == vResource {
		if ds := checkResourceType(v.resource, w.schemas); ds.HasErrors() {
			return ds
		}
	}
	ds := w.cg.refDiags[i]
	refMod := w.cfg.Descendant(v.refModule())
	if refMod == nil {
		return ds
	}
	scope := w.scope(w.cfg.Descendant(v.module), refMod, nil)
	switch v.kind {
	case vProvider:
		ds = ds.Append(w.refs.check(refMod, w.cg.refs[i], nil))
		if v.pcfg != nil && v.pcfg.ForEach != nil {
			// Its keys are known before anything is planned (OpenTofu's
			// static evaluation), so references to resources are wrong
			// already.
			ds = ds.Append(eval.StaticRefs(refMod, v.pcfg.StaticSubject(v.module), v.pcfg.ForEach))
		}
		if !ds.HasErrors() {
			ds = ds.Append(w.startProvider(v.provider))
		}
	case vLocal:
		_, lds := scope.EvalExpr(v.local.Expr, cty.DynamicPseudoType)
		ds = ds.Append(lds)
	case vOutput:
		val, ods := scope.EvalExpr(v.output.Expr, cty.DynamicPseudoType)
		ds = ds.Append(ods, checkRuleExprs(scope, v.output.Preconditions))
		if d := eval.CheckOutputEphemerality(v.output, v.module.IsRoot(), val); d != nil && !ods.HasErrors() && !v.output.Ephemeral {
			ds = ds.Append(*d)
		}
		if d := eval.CheckOutputStorable(v.output, val); d != nil && v.module.IsRoot() && !ods.HasErrors() {
			// A value no state could hold is known already (2/0).
			ds = ds.Append(*d)
		}
		if v.output.TypeSet && !ods.HasErrors() {
			// A value already known not to fit the output's type (an
			// unknown one converts to any type).
			if _, d := eval.ConvertOutputValue(v.output, val); d != nil {
				ds = ds.Append(*d)
			}
		}
	case vResource:
		post := w.scope(w.cfg.Descendant(v.module), refMod, v.resource)
		ds = ds.Append(w.resource(ctx, v.resource, v.module, scope, post))
	default:
		// Module calls, their arguments and check blocks: their
		// expressions are evaluated when planned; their references are
		// checked now.
		ds = ds.Append(w.refs.check(refMod, w.cg.refs[i], nil))
	}
	return uniqueDiags(ds)
}

// scope is the evaluation scope of module mod with every value unknown.
// Its references are checked against refMod (the module the expressions
// are written in), with self, when not nil, the resource self refers to.
func (w *validateWalk) scope(mod, refMod *configs.Module, self *configs.Resource) *lang.Scope {
	dir := w.cfg.SourceDir
	if mod != nil {
		dir = mod.SourceDir
	}
	return &lang.Scope{Data: unknownData{}, Funcs: w.env.ConfigFuncs(refMod), ModuleDir: dir, RootDir: w.cfg.SourceDir, Workspace: "default",
		Repetition: lang.Repetition{CountIndex: cty.UnknownVal(cty.Number), EachKey: cty.UnknownVal(cty.String), EachValue: cty.DynamicVal},
		Check:      func(refs []*addrs.Reference) diags.Diagnostics { return w.refs.check(refMod, refs, self) }}
}

// uniqueDiags drops repeats: a reference the analysis of a body found
// invalid is reported by the graph and again by the body's evaluation.
func uniqueDiags(ds diags.Diagnostics) diags.Diagnostics {
	if len(ds) < 2 {
		return ds
	}
	type key struct {
		sev             diags.Severity
		summary, detail string
		subject         hcl.Range
	}
	seen := make(map[key]bool, len(ds))
	out := ds[:0:0]
	for _, d := range ds {
		k := key{sev: d.Severity, summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// startProvider starts the unconfigured instance of a provider
// configuration that validates its resources.
func (w *validateWalk) startProvider(addr addrs.AbsProviderConfig) diags.Diagnostics {
	if _, err := w.set.Get(addr); err == nil {
		return nil
	}
	return w.set.Unconfigured(addr)
}

// resource checks a resource block: count or for_each, its body and
// conditions with unknown values (postconditions in post, whose self is
// the resource), and then its provider's own validation.
func (w *validateWalk) resource(ctx context.Context, r *configs.Resource, path addrs.Module, scope, post *lang.Scope) diags.Diagnostics {
	schema, version := w.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	if schema == nil {
		return nil
	}
	_, ds := eval.ExpandRepetition(scope, r.Count, r.ForEach, true)
	for _, s := range []*lang.Scope{scope, post} {
		if r.Count == nil {
			s.Repetition.CountIndex = cty.NilVal
		}
		if r.ForEach == nil {
			s.Repetition.EachKey, s.Repetition.EachValue = cty.NilVal, cty.NilVal
		}
	}
	val, bds := scope.EvalPrepared(w.env.PreparedBlock(r, schema))
	if !bds.HasErrors() && r.Mode != addrs.EphemeralResourceMode {
		bds = bds.Append(eval.CheckNoEphemeral(val, schema, r.Config, r.DeclRange).WithAddressOf(r.Addr().Instance(addrs.NoKey).Absolute(path.UnkeyedInstance())))
	}
	ds = ds.Append(bds, checkRuleExprs(scope, r.Preconditions))
	if !bds.HasErrors() {
		ds = ds.Append(checkIgnoreChanges(r, schema))
	}
	post.Self = cty.UnknownVal(schema.ImpliedType())
	ds = ds.Append(checkRuleExprs(post, r.Postconditions))
	if ds.HasErrors() {
		return ds
	}
	inst, err := w.set.Get(r.ProviderConfigAddr())
	if err != nil {
		return ds // the provider configuration failed to start, and said so
	}
	t := &lifecycle.Target{
		Addr: r.Addr().Instance(addrs.NoKey).Absolute(path.UnkeyedInstance()).Object(addrs.NotDeposed), Provider: inst,
		ProviderAddr: r.Provider, Schema: schema, SchemaVersion: version, Body: r.Config, DeclRange: r.DeclRange,
	}
	// The diagnostics name the resource block (the NoKey instance's
	// address is the block's), as Terraform's validate does.
	return ds.Append(lifecycle.ValidateConfig(ctx, t, val))
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

// Resource is unknown, and an ephemeral resource's is ephemeral too, so
// that a direct use where no ephemeral value may go is reported before
// anything is opened, as OpenTofu's validate reports it.
func (unknownData) Resource(addr addrs.Resource, _ hcl.Range) (cty.Value, diags.Diagnostics) {
	if addr.Mode == addrs.EphemeralResourceMode {
		return cty.DynamicVal.Mark(marks.Ephemeral), nil
	}
	return cty.DynamicVal, nil
}

func (unknownData) ModuleCall(addrs.ModuleCall, hcl.Range) (cty.Value, diags.Diagnostics) {
	return cty.DynamicVal, nil
}
