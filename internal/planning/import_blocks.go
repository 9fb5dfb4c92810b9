package planning

import (
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// importSet holds the import blocks that target one resource (by its
// static address), resolved once on first use: their for_each, to keys
// and id are evaluated in the root module when the resource is first
// planned. The configuration graph makes the resource wait for what the
// blocks refer to (connectImports), so variables, locals and data
// sources are known by then, as Terraform 1.6 requires.
type importSet struct {
	blocks     []*configs.Import
	once       sync.Once
	byInstance map[addrs.UniqueKey]*resolvedImport
	resolved   []*resolvedImport
	ds         diags.Diagnostics
}

// resolvedImport is one instance an import block imports: its address
// and the provider's id of the object.
type resolvedImport struct {
	addr  addrs.AbsResourceInstance
	key   importRef
	block *configs.Import
}

// indexImports groups the configuration's import blocks by the resource
// they target; only a normal plan imports.
func (p *planner) indexImports() {
	p.importSets = map[addrs.UniqueKey]*importSet{}
	if p.opts.Mode != plans.NormalMode {
		return
	}
	for _, imp := range p.opts.Config.Imports {
		k := imp.Target.UniqueKey()
		s := p.importSets[k]
		if s == nil {
			s = &importSet{}
			p.importSets[k] = s
		}
		s.blocks = append(s.blocks, imp)
	}
}

// checkImportTargets refuses, in a normal plan, an import block whose
// target the root module does not declare: only plan
// -generate-config-out (which declares it) imports into such a target.
// The loader accepts them, so init and validate do, as in Terraform 1.5.7.
func (p *planner) checkImportTargets() diags.Diagnostics {
	if p.opts.Mode != plans.NormalMode || p.generating {
		return nil
	}
	var ds diags.Diagnostics
	for _, imp := range p.opts.Config.Imports {
		t := imp.Target
		if t.Resource.Mode != addrs.ManagedResourceMode {
			continue // refused when the configuration loaded
		}
		mod := p.opts.Config.Descendant(t.Module)
		switch {
		case mod != nil && mod.ResourceByAddr(t.Resource) != nil:
		case t.Module.IsRoot():
			ds = ds.Append(diags.At(imp.DeclRange, "Import block target does not exist",
				"The target for the given import block does not exist. If you wish to automatically generate config for this resource, use the -generate-config-out option within cairn plan. Otherwise, make sure the target resource exists within your configuration. For example:\n\n  cairn plan -generate-config-out=generated.tf"))
		default:
			ds = ds.Append(diags.At(imp.DeclRange, "Import block target does not exist",
				"The target for the given import block does not exist. The specified target is within a module, and must be defined as a resource within that module before anything can be imported."))
		}
	}
	return ds
}

// resolveResourceImports is resolveImports for a resource in a module
// instance. Without import blocks it builds no address: it runs for
// every resource of every module instance.
func (p *planner) resolveResourceImports(addr addrs.AbsResource) diags.Diagnostics {
	if len(p.importSets) == 0 {
		return nil
	}
	return p.resolveImports(addr.Config())
}

// resolveImports resolves the import blocks of resource r, once; the
// first caller gets their diagnostics.
func (p *planner) resolveImports(r addrs.ConfigResource) diags.Diagnostics {
	s := p.importSets[r.UniqueKey()]
	if s == nil {
		return nil
	}
	var ds diags.Diagnostics
	s.once.Do(func() {
		s.byInstance = map[addrs.UniqueKey]*resolvedImport{}
		for _, b := range s.blocks {
			s.ds = s.ds.Append(p.resolveImportBlock(s, b))
		}
		ds = s.ds
	})
	return ds
}

// importFor returns the import that targets instance addr, or nil.
// resolveImports has run for its resource.
func (p *planner) importFor(addr addrs.AbsResourceInstance) *resolvedImport {
	if len(p.importSets) == 0 {
		return nil
	}
	s := p.importSets[addr.ContainingResource().Config().UniqueKey()]
	if s == nil {
		return nil
	}
	return s.byInstance[addr.UniqueKey()]
}

// resolveImportBlock evaluates one block, once per for_each element.
func (p *planner) resolveImportBlock(s *importSet, b *configs.Import) diags.Diagnostics {
	scope := p.env.Scope(addrs.RootModuleInstance)
	if b.ForEach == nil {
		return p.resolveImportInstance(s, b, scope)
	}
	reps, ds := importRepetitions(scope, b.ForEach)
	for _, rep := range reps {
		each := *scope
		each.Repetition = rep
		ds = ds.Append(p.resolveImportInstance(s, b, &each))
	}
	return ds
}

// importRepetitions evaluates an import block's for_each: a map, an
// object, a set of strings, or (unlike a resource's for_each) a list or
// tuple, whose each.key is the element's index. It must be known.
func importRepetitions(scope *lang.Scope, expr hcl.Expression) ([]lang.Repetition, diags.Diagnostics) {
	val, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return nil, ds
	}
	bad := func(detail string) diags.Diagnostics {
		return ds.Append(diags.At(expr.Range(), "Invalid for_each argument", detail))
	}
	ty := val.Type()
	switch {
	case val.IsNull():
		return nil, bad("The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.")
	case !val.IsWhollyKnown():
		return nil, bad("The \"for_each\" value depends on resource attributes that cannot be determined until apply, so Cairn cannot predict how many instances will be created.")
	case val.IsMarked():
		return nil, bad("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")
	case ty.IsSetType() && !ty.ElementType().Equals(cty.String):
		return nil, bad(fmt.Sprintf("The given \"for_each\" argument value is unsuitable: \"for_each\" supports maps and sets of strings, but you have provided a set containing type %s.", ty.ElementType().FriendlyName()))
	case !ty.IsMapType() && !ty.IsObjectType() && !ty.IsSetType() && !ty.IsListType() && !ty.IsTupleType():
		return nil, bad(fmt.Sprintf("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type %s.", ty.FriendlyName()))
	}
	var out []lang.Repetition
	for it := val.ElementIterator(); it.Next(); {
		k, v := it.Element()
		out = append(out, lang.Repetition{EachKey: k, EachValue: v})
	}
	return out, ds
}

// resolveImportInstance evaluates one repetition of a block: the to
// address with its keys, then the id, and records it, refusing a second
// block for the same instance.
func (p *planner) resolveImportInstance(s *importSet, b *configs.Import, scope *lang.Scope) diags.Diagnostics {
	addr, ds := importAddress(scope, b)
	if ds.HasErrors() {
		return ds
	}
	var key importRef
	var ids diags.Diagnostics
	if b.IdentityExpr != nil {
		key.identity, ids = importIdentity(scope, b.IdentityExpr)
	} else {
		key.id, ids = importID(scope, b.IDExpr)
	}
	if ds = ds.Append(ids); ids.HasErrors() {
		return ds
	}
	if prev := s.byInstance[addr.UniqueKey()]; prev != nil {
		return ds.Append(diags.At(b.DeclRange, fmt.Sprintf("Duplicate import configuration for %q", addr),
			fmt.Sprintf("An import block for the resource %q was already declared at %s. A resource can have only one import block.",
				addr, prev.block.DeclRange)))
	}
	ri := &resolvedImport{addr: addr, key: key, block: b}
	s.byInstance[addr.UniqueKey()] = ri
	s.resolved = append(s.resolved, ri)
	return ds
}

// importAddress evaluates the keys of a block's to address.
func importAddress(scope *lang.Scope, b *configs.Import) (addrs.AbsResourceInstance, diags.Diagnostics) {
	if b.Static {
		return b.To, nil
	}
	var ds diags.Diagnostics
	t, hds := configs.ImportToTraversal(b.ToExpr, func(expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
		v, kds := importKey(scope, expr)
		ds = ds.Append(kds)
		return v, nil
	})
	if ds = ds.Append(hds); ds.HasErrors() {
		return addrs.AbsResourceInstance{}, ds
	}
	addr, pds := addrs.ParseAbsResourceInstance(t, configs.TraversalText(t))
	for i := range pds {
		if pds[i].Subject == nil {
			pds[i].Subject = b.ToExpr.Range().Ptr()
		}
	}
	return addr, ds.Append(pds)
}

// importKey evaluates one instance key of a to address: a known string
// or number, neither null nor sensitive.
func importKey(scope *lang.Scope, expr hcl.Expression) (cty.Value, diags.Diagnostics) {
	v, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return cty.StringVal(""), ds
	}
	bad := func(detail string) (cty.Value, diags.Diagnostics) {
		return cty.StringVal(""), ds.Append(diags.At(expr.Range(), "Import block 'to' address contains an invalid key", detail))
	}
	switch {
	case !v.IsKnown():
		return bad("Import block contained a resource address using an index that will only be known after apply. Please ensure to use expressions that are known at plan time for the index of an import target address")
	case v.IsNull():
		return bad("Import block contained a resource address using an index which is null. Please ensure the expression for the index is not null")
	case v.Type() != cty.String && v.Type() != cty.Number:
		return bad("Import block contained a resource address using an index which is not valid for a resource instance (not a string or a number). Please ensure the expression for the index is correct, and returns either a string or a number")
	case marks.Contains(v):
		return bad("Import block contained a resource address using an index which is sensitive. Please ensure indexes used in the resource address of an import target are not sensitive")
	}
	return v, ds
}

// importID evaluates a block's id: a known, non-null, non-sensitive
// string.
func importID(scope *lang.Scope, expr hcl.Expression) (string, diags.Diagnostics) {
	v, ds := scope.EvalExpr(expr, cty.String)
	if ds.HasErrors() {
		return "", ds
	}
	bad := func(detail string) (string, diags.Diagnostics) {
		return "", ds.Append(diags.At(expr.Range(), "Invalid import id argument", detail))
	}
	switch {
	case v.IsNull():
		return bad("The import ID cannot be null.")
	case !v.IsWhollyKnown():
		return bad("The import block \"id\" argument depends on resource attributes that cannot be determined until apply, so Cairn cannot plan to import this resource.")
	case marks.Contains(v):
		return bad("The import ID cannot be sensitive.")
	}
	return v.AsString(), ds
}

// importRefs lists what an import block refers to, in the root module:
// for_each, id and the keys of to.
func importRefs(b *configs.Import) ([]*addrs.Reference, diags.Diagnostics) {
	var refs []*addrs.Reference
	var ds diags.Diagnostics
	for _, e := range []hcl.Expression{b.ForEach, b.IDExpr, b.IdentityExpr} {
		if e == nil {
			continue
		}
		r, rds := lang.ReferencesInExpr(e)
		refs, ds = append(refs, r...), ds.Append(rds)
	}
	if !b.Static {
		configs.ImportToTraversal(b.ToExpr, func(e hcl.Expression) (cty.Value, hcl.Diagnostics) {
			r, rds := lang.ReferencesInExpr(e)
			refs, ds = append(refs, r...), ds.Append(rds)
			return cty.StringVal(""), nil
		})
	}
	return refs, ds
}

// connectImports makes each import block's target resource wait for what
// the block refers to in the root module, so that planning the resource
// can resolve the block (as Terraform's graph does with an import's
// references).
func (cg *configGraph) connectImports(imports []*configs.Import) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, b := range imports {
		i, ok := cg.resourceVertex(b.Target)
		if !ok {
			continue // refused when the configuration loaded
		}
		refs, rds := importRefs(b)
		ds = ds.Append(rds).Append(cg.connectRefs(i, addrs.RootModule, refs))
	}
	return ds
}
