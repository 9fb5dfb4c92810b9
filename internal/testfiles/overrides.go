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

// instanceProvider is the engine's hook choosing the provider of one
// resource instance.
type instanceProvider = func(addrs.AbsResourceInstance, providers.Interface) providers.Interface

// overrides builds the hook that serves a run's overridden resources and
// data sources from mocks: those of the mock providers, then the file's,
// then the run's (a later one for the same target wins). nil when there
// are none.
func (fr *fileRun) overrides(ctx context.Context, mod *modulerun.Module, run *Run) (instanceProvider, diags.Diagnostics) {
	var all []*Override
	for _, mp := range fr.file.Mocks {
		all = append(all, mp.Overrides...)
	}
	all = append(append(all, fr.file.Overrides...), run.Overrides...)
	if len(all) == 0 {
		return nil, nil
	}
	schemas, ds := mod.Schemas(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	byAddr := map[string]providers.Interface{}
	for i, o := range all {
		target := traversalString(o.Target)
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
	return func(addr addrs.AbsResourceInstance, p providers.Interface) providers.Interface {
		if m, ok := byAddr[addr.String()]; ok {
			return m
		}
		if m, ok := byAddr[addr.ContainingResource().String()]; ok {
			return m
		}
		return p
	}, ds
}

// overrideTarget checks that an override names what its kind overrides
// and returns the resource's mode and type.
func overrideTarget(o *Override, target string) (addrs.ResourceMode, string, diags.Diagnostics) {
	rng := o.Target.SourceRange()
	if o.Kind == OverrideModule {
		return 0, "", diags.Diagnostics{diags.At(o.DeclRange, "Module overrides are not supported yet",
			fmt.Sprintf("Cairn does not replace a module's outputs yet; the run would create what %s creates, so it is not run.", target))}
	}
	addr, hd := addrs.ParseAbsResourceInstanceStr(target)
	if hd.HasErrors() {
		return 0, "", diags.Diagnostics{diags.At(rng, "Invalid override target",
			fmt.Sprintf("The target of %s must be a resource address; %s is not one.", kindBlock(o.Kind), target))}
	}
	r := addr.Resource.Resource
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
