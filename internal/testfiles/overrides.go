package testfiles

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/providers"
)

// resourceProvider is the engine's hook choosing the provider of one
// resource's instances.
type resourceProvider = func(addrs.AbsResource, providers.Interface) providers.Interface

// hooks are the engine hooks a run's overrides need; nil fields when
// there is nothing to override.
type hooks struct {
	resource resourceProvider
	output   func(addrs.AbsOutputValue) (cty.Value, bool)
}

// overrides builds the hooks that serve a run's overridden objects from
// mocks: those of the mock providers, then the file's, then the run's
// (a later one for the same target wins). An overridden module's
// outputs are the values given (null for the others), and every
// resource in it is served by a mock, so none reaches a real provider.
func (fr *fileRun) overrides(ctx context.Context, mod *modulerun.Module, run *Run) (hooks, diags.Diagnostics) {
	var all []*Override
	for _, mp := range fr.file.Mocks {
		all = append(all, mp.Overrides...)
	}
	all = append(append(all, fr.file.Overrides...), run.Overrides...)
	if len(all) == 0 {
		return hooks{}, nil
	}
	schemas, ds := mod.Schemas(ctx)
	if ds.HasErrors() {
		return hooks{}, ds
	}
	byAddr := map[string]providers.Interface{}
	modules := map[string]cty.Value{}
	for i, o := range all {
		target := traversalString(o.Target)
		if o.Kind == OverrideModule {
			mi, err := addrs.ParseModuleInstanceStr(target)
			if err != nil || mi.IsRoot() {
				ds = ds.Append(diags.At(o.Target.SourceRange(), "Invalid override target",
					fmt.Sprintf("The target of override_module must be a module call; %s is not one.", target)))
				continue
			}
			modules[mi.String()] = o.Values
			continue
		}
		mode, typ, tds := overrideTarget(o, target)
		if ds = ds.Append(tds); tds.HasErrors() {
			continue
		}
		schema := findSchema(schemas, mode, typ)
		if schema == nil {
			ds = ds.Append(diags.At(o.Target.SourceRange(), "Unknown override target",
				fmt.Sprintf("No provider of the module under test has a type %q, so %s cannot be overridden.", typ, target)))
			continue
		}
		mp := &MockProvider{Resources: map[string]cty.Value{}, Data: map[string]cty.Value{}, DuringPlan: o.DuringPlan}
		resp := &providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{}, DataSources: map[string]providers.Schema{}}
		if mode == addrs.DataResourceMode {
			mp.Data[typ], resp.DataSources[typ] = o.Values, *schema
		} else {
			mp.Resources[typ], resp.ResourceTypes[typ] = o.Values, *schema
		}
		byAddr[target] = newMockProvider(mp, resp, uint64(1000+i))
	}
	h := hooks{}
	var inModules providers.Interface
	if len(modules) > 0 {
		inModules = newMockProvider(&MockProvider{}, allTypes(schemas), 999)
		h.output = func(addr addrs.AbsOutputValue) (cty.Value, bool) {
			outs, ok := modules[addr.Module.String()]
			if !ok {
				outs, ok = modules[addr.Module.Module().String()]
			}
			if !ok {
				return cty.NilVal, false
			}
			if v := defaultAttr(outs, addr.Name); v != cty.NilVal {
				return v, true
			}
			return cty.NullVal(cty.DynamicPseudoType), true
		}
	}
	h.resource = func(addr addrs.AbsResource, p providers.Interface) providers.Interface {
		if m, ok := byAddr[addr.String()]; ok {
			return m
		}
		if inModules != nil && withinModule(addr.Module, modules) {
			return inModules
		}
		return p
	}
	return h, ds
}

// withinModule reports whether m is one of the overridden modules or
// inside one.
func withinModule(m addrs.ModuleInstance, modules map[string]cty.Value) bool {
	for ; !m.IsRoot(); m = m[:len(m)-1] {
		if _, ok := modules[m.String()]; ok {
			return true
		}
		if _, ok := modules[m.Module().String()]; ok {
			return true
		}
	}
	return false
}

// allTypes is one schema holding every resource type and data source of
// the providers, for the mock that serves an overridden module.
func allTypes(schemas providers.Schemas) *providers.GetProviderSchemaResponse {
	out := &providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{}, DataSources: map[string]providers.Schema{}}
	for _, p := range schemas.Sorted() {
		for k, v := range schemas[p].ResourceTypes {
			out.ResourceTypes[k] = v
		}
		for k, v := range schemas[p].DataSources {
			out.DataSources[k] = v
		}
	}
	return out
}

// overrideTarget checks that an override names what its kind overrides
// and returns the resource's mode and type.
func overrideTarget(o *Override, target string) (addrs.ResourceMode, string, diags.Diagnostics) {
	rng := o.Target.SourceRange()
	addr, hd := addrs.ParseAbsResourceInstanceStr(target)
	if hd.HasErrors() {
		return 0, "", diags.Diagnostics{diags.At(rng, "Invalid override target",
			fmt.Sprintf("The target of %s must be a resource address; %s is not one.", kindBlock(o.Kind), target))}
	}
	r := addr.Resource.Resource
	if addr.Resource.Key != addrs.NoKey {
		return 0, "", diags.Diagnostics{diags.At(rng, "Overrides of single instances are not supported yet",
			fmt.Sprintf("Cairn overrides whole resources; write %s without its instance key to override every instance.", addr.ContainingResource()))}
	}
	if (o.Kind == OverrideData) != (r.Mode == addrs.DataResourceMode) {
		return 0, "", diags.Diagnostics{diags.At(rng, "Invalid override target",
			fmt.Sprintf("%s overrides a %s, and %s is not one.", kindBlock(o.Kind), map[bool]string{true: "data source", false: "managed resource"}[o.Kind == OverrideData], target))}
	}
	return r.Mode, r.Type, nil
}

func kindBlock(k OverrideKind) string {
	switch k {
	case OverrideData:
		return "override_data"
	case OverrideModule:
		return "override_module"
	}
	return "override_resource"
}

// findSchema finds a resource type's schema among the providers'.
func findSchema(schemas providers.Schemas, mode addrs.ResourceMode, typ string) *providers.Schema {
	for _, p := range schemas.Sorted() {
		m := schemas[p].ResourceTypes
		if mode == addrs.DataResourceMode {
			m = schemas[p].DataSources
		}
		if s, ok := m[typ]; ok {
			return &s
		}
	}
	return nil
}
