package lifecycle

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// fake is a provider whose resource operations are the funcs a test sets;
// it records the last request of each. Operations a test does not set
// panic, so a step calling something unexpected fails loudly.
type fake struct {
	providers.Interface

	plan     func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
	apply    func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
	read     func(providers.ReadResourceRequest) providers.ReadResourceResponse
	upgrade  func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse
	readData func(providers.ReadDataSourceRequest) providers.ReadDataSourceResponse
	imp      func(providers.ImportResourceStateRequest) providers.ImportResourceStateResponse

	planReq     providers.PlanResourceChangeRequest
	applyReq    providers.ApplyResourceChangeRequest
	readDataReq providers.ReadDataSourceRequest
	validated   []string
	validateCfg cty.Value
}

func (f *fake) PlanResourceChange(_ context.Context, r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	f.planReq = r
	return f.plan(r)
}

func (f *fake) ApplyResourceChange(_ context.Context, r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	f.applyReq = r
	return f.apply(r)
}

func (f *fake) ReadResource(_ context.Context, r providers.ReadResourceRequest) providers.ReadResourceResponse {
	return f.read(r)
}

func (f *fake) UpgradeResourceState(_ context.Context, r providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	return f.upgrade(r)
}

func (f *fake) ReadDataSource(_ context.Context, r providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	f.readDataReq = r
	return f.readData(r)
}

func (f *fake) ImportResourceState(_ context.Context, r providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return f.imp(r)
}

func (f *fake) ValidateResourceConfig(_ context.Context, r providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	f.validated, f.validateCfg = append(f.validated, "resource "+r.TypeName), r.Config
	return providers.ValidateResourceConfigResponse{}
}

func (f *fake) ValidateDataResourceConfig(_ context.Context, r providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	f.validated, f.validateCfg = append(f.validated, "data "+r.TypeName), r.Config
	return providers.ValidateDataResourceConfigResponse{}
}

// schema: a computed id, a required name, a sensitive secret and an
// optional, computed size.
var schema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"id":     {Type: cty.String, Computed: true},
	"name":   {Type: cty.String, Required: true},
	"secret": {Type: cty.String, Optional: true, Sensitive: true},
	"size":   {Type: cty.Number, Optional: true, Computed: true},
}}

var (
	thing   = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "a"}
	provAdr = addrs.NewDefaultProvider("test")
)

func obj(id, name, secret cty.Value, size cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": id, "name": name, "secret": secret, "size": size})
}

func str(s string) cty.Value { return cty.StringVal(s) }

var (
	nullStr = cty.NullVal(cty.String)
	nullNum = cty.NullVal(cty.Number)
	unkStr  = cty.UnknownVal(cty.String)
)

// target returns a target of the fake with a body whose name attribute is
// at main.tf:2:10, so located diagnostics can be checked.
func target(f *fake) *Target {
	src := "resource \"test_thing\" \"a\" {\n  name = \"n\"\n}\n"
	file, _ := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	body := file.Body.(*hclsyntax.Body).Blocks[0].Body
	return &Target{
		Addr: thing.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance).Object(addrs.NotDeposed), Provider: f, ProviderAddr: provAdr,
		Schema: schema, Body: body, DeclRange: file.Body.(*hclsyntax.Body).Blocks[0].DefRange(),
	}
}
