package cairntest

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ provider.ProviderWithFunctions = testProvider{}

// The provider's functions exercise what no public provider here does:
// a variadic parameter (join), a dynamic parameter and result (echo),
// function errors at an argument and not at one (check), and parameters
// that accept unknown (describe) and null (describe) arguments.
func (testProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		func() function.Function { return joinFunc{} },
		func() function.Function { return echoFunc{} },
		func() function.Function { return checkFunc{} },
		func() function.Function { return describeFunc{} },
	}
}

// joinFunc is join(sep, parts...): the parts joined by sep.
type joinFunc struct{}

func (joinFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "join"
}

func (joinFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:           "Joins strings.",
		Parameters:        []function.Parameter{function.StringParameter{Name: "sep"}},
		VariadicParameter: function.StringParameter{Name: "parts"},
		Return:            function.StringReturn{},
	}
}

func (joinFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var sep string
	var parts []string
	if resp.Error = req.Arguments.Get(ctx, &sep, &parts); resp.Error != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, strings.Join(parts, sep))
}

// echoFunc is echo(value): value, of whatever type it has.
type echoFunc struct{}

func (echoFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "echo"
}

func (echoFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Returns its argument.",
		Parameters: []function.Parameter{function.DynamicParameter{Name: "value"}},
		Return:     function.DynamicReturn{},
	}
}

func (echoFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var v types.Dynamic
	if resp.Error = req.Arguments.Get(ctx, &v); resp.Error != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, v)
}

// checkFunc is check(n): n when it is positive; a negative n is an error
// at the argument, zero an error of the call.
type checkFunc struct{}

func (checkFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "check"
}

func (checkFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Returns a positive number.",
		Parameters: []function.Parameter{function.Int64Parameter{Name: "n"}},
		Return:     function.Int64Return{},
	}
}

func (checkFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var n int64
	if resp.Error = req.Arguments.Get(ctx, &n); resp.Error != nil {
		return
	}
	switch {
	case n < 0:
		resp.Error = function.NewArgumentFuncError(0, "n must not be negative")
	case n == 0:
		resp.Error = function.NewFuncError("zero is not a positive number")
	default:
		resp.Error = resp.Result.Set(ctx, n)
	}
}

// describeFunc is describe(value): "unknown", "null" or the value itself,
// for a parameter that takes unknown and null arguments.
type describeFunc struct{}

func (describeFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "describe"
}

func (describeFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Says what its argument is.",
		Parameters: []function.Parameter{function.StringParameter{Name: "value",
			AllowNullValue: true, AllowUnknownValues: true}},
		Return: function.StringReturn{},
	}
}

func (describeFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var v types.String
	if resp.Error = req.Arguments.Get(ctx, &v); resp.Error != nil {
		return
	}
	out := v.ValueString()
	switch {
	case v.IsUnknown():
		out = "unknown"
	case v.IsNull():
		out = "null"
	}
	resp.Error = resp.Result.Set(ctx, out)
}
