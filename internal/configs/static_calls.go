package configs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// StaticValues evaluates expressions of a module that must be known when
// the configuration loads, before anything is planned: a module call's
// source and version (OpenTofu 1.8's early evaluation, Terraform 1.15's
// const variables). Its scope is the module's variables (the root's from
// the command line and variable files, a child's from its call's
// arguments, themselves evaluated so) and the locals that depend only on
// them. The command layer implements it; the loader and the module
// installer call it, from several goroutines at once.
type StaticValues interface {
	// Value evaluates expr, which what names ("module.net.source"), in
	// mod's static scope, with diagnostics for what it may not refer to
	// or what is not known yet, located at expr.
	Value(mod *Module, expr hcl.Expression, what string) (cty.Value, diags.Diagnostics)
	// CheckConst reports each const variable of mod whose value is not
	// known when the configuration loads.
	CheckConst(mod *Module) diags.Diagnostics
}

// isDynamic reports whether expr refers to something or calls a
// function, so that only the static scope can give its value.
func isDynamic(expr hcl.Expression) bool {
	if len(expr.Variables()) > 0 {
		return true
	}
	syn, ok := expr.(hclsyntax.Expression)
	if !ok {
		return false
	}
	calls := false
	_ = hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
		if _, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			calls = true
		}
		return nil
	})
	return calls
}

// ResolveCall evaluates the source and version of call mc in module mod
// when they are expressions, with static; a version that is null means
// none, as in OpenTofu. Calls written with literals are left as they are.
// static nil means the values cannot be known: the call then keeps no
// source, and the caller reports why.
func ResolveCall(mod *Module, mc *ModuleCall, static StaticValues) diags.Diagnostics {
	if mc.SourceExpr == nil && mc.VersionExpr == nil {
		return nil
	}
	if static == nil {
		return diags.Diagnostics{diags.At(mc.SourceAddrRange, "Unable to compute static value",
			fmt.Sprintf("module.%s.source depends on values that are not available here.", mc.Name))}
	}
	var ds diags.Diagnostics
	if mc.VersionExpr != nil {
		mc.Version = ""
		v, vds := static.Value(mod, mc.VersionExpr, "module."+mc.Name+".version")
		ds = ds.Append(vds)
		if !vds.HasErrors() && !v.IsNull() {
			ds = ds.Append(mc.setVersion(v, nil))
		}
	}
	if mc.SourceExpr != nil {
		mc.SourceAddr = ""
		v, sds := static.Value(mod, mc.SourceExpr, "module."+mc.Name+".source")
		ds = ds.Append(sds)
		if !sds.HasErrors() {
			ds = ds.Append(mc.setSource(v, nil))
		}
	}
	return ds
}

// resolveCalls resolves every call of mod in name order; see
// ResolveCall.
func resolveCalls(mod *Module, static StaticValues) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
		ds = ds.Append(ResolveCall(mod, mod.ModuleCalls[name], static))
	}
	return ds
}

// hasConst reports whether any variable of mod is const.
func hasConst(mod *Module) bool {
	for _, v := range mod.Variables {
		if v.Const {
			return true
		}
	}
	return false
}
