package testfiles

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

// hooks are the engine hooks a run's mocks and overrides need; nil
// fields when there is nothing to serve from a mock.
type hooks struct {
	resource providers.ResourceHook
	output   func(addrs.AbsOutputValue) (cty.Value, bool)
}

// overrideSet is a list of override_resource and override_data blocks
// ready to serve: a mock per block, by the resource it names, and by
// instance for those naming one instance. A later block for the same
// target wins, so a run's blocks, added after the file's, take
// precedence.
type overrideSet struct {
	resources map[string]providers.Interface
	instances map[string]map[addrs.InstanceKey]providers.Interface
}

// add builds the mocks of os, whose targets must be types the schemas
// have.
func (s *overrideSet) add(os []*Override, schemas providers.Schemas, seed uint64) diags.Diagnostics {
	var ds diags.Diagnostics
	for i, o := range os {
		target := traversalString(o.Target)
		addr, tds := overrideTarget(o, target)
		if ds = ds.Append(tds); tds.HasErrors() {
			continue
		}
		r := addr.Resource.Resource
		schema := findSchema(schemas, r.Mode, r.Type)
		if schema == nil {
			ds = ds.Append(diags.At(o.Target.SourceRange(), "Unknown override target",
				fmt.Sprintf("No provider of the module under test has a type %q, so %s cannot be overridden.", r.Type, target)))
			continue
		}
		m := overrideMock(o, r.Mode, r.Type, schema, seed+uint64(i))
		key := addr.ContainingResource().String()
		if addr.Resource.Key == addrs.NoKey {
			if s.resources == nil {
				s.resources = map[string]providers.Interface{}
			}
			s.resources[key] = m
			continue
		}
		if s.instances == nil {
			s.instances = map[string]map[addrs.InstanceKey]providers.Interface{}
		}
		if s.instances[key] == nil {
			s.instances[key] = map[addrs.InstanceKey]providers.Interface{}
		}
		s.instances[key][addr.Resource.Key] = m
	}
	return ds
}

// overrideMock is the mock serving one override block: the type's
// schema, the block's values as the type's defaults.
func overrideMock(o *Override, mode addrs.ResourceMode, typ string, schema *providers.Schema, seed uint64) *mockProvider {
	mp := &MockProvider{Resources: map[string]cty.Value{}, Data: map[string]cty.Value{}, DuringPlan: o.DuringPlan}
	resp := &providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{}, DataSources: map[string]providers.Schema{}}
	if mode == addrs.DataResourceMode {
		mp.Data[typ], resp.DataSources[typ] = o.Values, *schema
	} else {
		mp.Resources[typ], resp.ResourceTypes[typ] = o.Values, *schema
	}
	return newMockProvider(mp, resp, seed)
}

// serve returns the provider for addr's instances: the override of the
// whole resource in place of rest, and, when single instances are
// overridden, a router serving them apart. An override's target is
// written with or without module instance keys; both match.
func (s *overrideSet) serve(addr addrs.AbsResource, rest providers.Interface) providers.Interface {
	keys := [2]string{addr.String(), addr.Config().String()}
	for _, k := range keys {
		if m, ok := s.resources[k]; ok {
			rest = m
			break
		}
	}
	for _, k := range keys {
		if byKey, ok := s.instances[k]; ok {
			return &instanceRouter{Interface: rest, byKey: byKey}
		}
	}
	return rest
}

// instanceRouter serves the overridden instances of a resource with
// their mocks and the others as the resource would be served otherwise
// (which may route instances too: a mock_provider's own overrides).
type instanceRouter struct {
	providers.Interface
	byKey map[addrs.InstanceKey]providers.Interface
}

var _ providers.InstanceRouter = (*instanceRouter)(nil)

// ForInstance implements providers.InstanceRouter.
func (r *instanceRouter) ForInstance(key addrs.InstanceKey) providers.Interface {
	if m, ok := r.byKey[key]; ok {
		return m
	}
	if inner, ok := r.Interface.(providers.InstanceRouter); ok {
		return inner.ForInstance(key)
	}
	return r.Interface
}

// overrides builds the hooks that serve a run's mocked provider
// configurations and overridden objects, in Terraform's order of
// precedence: an override of the file or the run (the run's win; one
// instance's over its resource's), then an overridden module (every
// resource in it is served by a mock, so none reaches a real provider),
// then the overrides of the mock_provider block that serves the
// resource's configuration, then that mock.
func (fr *fileRun) overrides(ctx context.Context, lm *loadedModule, run *Run) (hooks, diags.Diagnostics) {
	mod := lm.mod
	mocks := fr.configMocks(lm, run)
	if len(mocks) == 0 && len(fr.file.Overrides) == 0 && len(run.Overrides) == 0 {
		return hooks{}, nil
	}
	schemas, ds := mod.Schemas(ctx)
	if ds.HasErrors() {
		return hooks{}, ds
	}
	var local overrideSet
	modules := map[string]cty.Value{}
	var resOverrides []*Override
	for _, o := range append(append([]*Override{}, fr.file.Overrides...), run.Overrides...) {
		if o.Kind != OverrideModule {
			resOverrides = append(resOverrides, o)
			continue
		}
		target := traversalString(o.Target)
		mi, err := addrs.ParseModuleInstanceStr(target)
		if err != nil || mi.IsRoot() {
			ds = ds.Append(diags.At(o.Target.SourceRange(), "Invalid override target",
				fmt.Sprintf("The target of override_module must be a module call; %s is not one.", target)))
			continue
		}
		modules[mi.String()] = o.Values
	}
	ds = ds.Append(local.add(resOverrides, schemas, 1000))
	byConfig := map[string]servedBy{}
	for key, cm := range mocks {
		sb := servedBy{mock: cm.mock}
		ds = ds.Append(sb.own.add(cm.spec.Overrides, schemas, 2000))
		byConfig[key] = sb
	}
	h := hooks{}
	var inModules providers.Interface
	if len(modules) > 0 {
		inModules = newMockProvider(&MockProvider{}, allTypes(schemas), 999)
		h.output = moduleOutputs(modules)
	}
	cfg := mod.Config()
	h.resource = func(addr addrs.AbsResource, pAddr addrs.AbsProviderConfig, p providers.Interface) providers.Interface {
		rest := p
		if pAddr.Module.IsRoot() {
			key := ProviderRef{Name: cfg.LocalNameForProvider(pAddr.Provider), Alias: pAddr.Alias}.String()
			if sb, ok := byConfig[key]; ok {
				rest = sb.own.serve(addr, sb.mock)
			}
		}
		if inModules != nil && withinModule(addr.Module, modules) {
			rest = inModules
		}
		return local.serve(addr, rest)
	}
	return h, ds
}

// servedBy is a mock_provider's mock with its own override blocks,
// which apply before it.
type servedBy struct {
	own  overrideSet
	mock providers.Interface
}

// moduleOutputs serves the outputs of overridden modules: the values
// given, null for the others.
func moduleOutputs(modules map[string]cty.Value) func(addrs.AbsOutputValue) (cty.Value, bool) {
	return func(addr addrs.AbsOutputValue) (cty.Value, bool) {
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
// (a resource, or one instance of it, as in Terraform 1.7+; OpenTofu
// 1.12 takes only whole resources) and returns its address.
func overrideTarget(o *Override, target string) (addrs.AbsResourceInstance, diags.Diagnostics) {
	rng := o.Target.SourceRange()
	addr, hd := addrs.ParseAbsResourceInstanceStr(target)
	if hd.HasErrors() {
		return addr, diags.Diagnostics{diags.At(rng, "Invalid override target",
			fmt.Sprintf("The target of %s must be a resource address; %s is not one.", kindBlock(o.Kind), target))}
	}
	r := addr.Resource.Resource
	if (o.Kind == OverrideData) != (r.Mode == addrs.DataResourceMode) {
		return addr, diags.Diagnostics{diags.At(rng, "Invalid override target",
			fmt.Sprintf("%s overrides a %s, and %s is not one.", kindBlock(o.Kind), map[bool]string{true: "data source", false: "managed resource"}[o.Kind == OverrideData], target))}
	}
	return addr, nil
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
