package providers

import (
	"context"
	"errors"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// Function is the signature of a provider-defined function (plugin
// protocol 6.5 and 5.5), as GetProviderSchema or GetFunctions declares it.
// The language calls it as provider::LOCAL::NAME; the engine builds a cty
// function from it (see package eval) and calls the provider through
// FunctionCaller.
type Function struct {
	Parameters []FunctionParameter
	// VariadicParameter, when set, takes any number of further arguments,
	// each sent as an argument of its own.
	VariadicParameter *FunctionParameter
	Return            cty.Type
	Summary           string
	Description       string
	// DeprecationMessage, when set, says the function is deprecated.
	DeprecationMessage string
}

// FunctionParameter is one parameter of a Function. Name serves only
// documentation and messages: arguments are positional.
type FunctionParameter struct {
	Name string
	Type cty.Type
	// AllowNullValue lets a null argument reach the provider; otherwise a
	// null is an error at the argument before any call.
	AllowNullValue bool
	// AllowUnknownValues lets an argument that is or holds an unknown
	// value reach the provider; otherwise the call is skipped and the
	// result is unknown, as Terraform promises provider developers.
	AllowUnknownValues bool
	Description        string
}

// CallFunctionRequest calls the function Name with one argument per
// parameter, then one per variadic argument, each of its parameter's type
// and unmarked.
type CallFunctionRequest struct {
	Name      string
	Arguments []cty.Value
}

// CallFunctionResponse is the result, or Err: a *FunctionError when the
// provider said the call failed (its text is for the user), another error
// when the call itself failed.
type CallFunctionResponse struct {
	Result cty.Value
	Err    error
}

// FunctionError is a function's own failure, as the provider reported it.
// Argument, when not nil, is the index of the argument at fault (counting
// variadic arguments on from the last parameter), so the caller can put
// the error at that argument.
type FunctionError struct {
	Text     string
	Argument *int
}

func (e *FunctionError) Error() string { return e.Text }

// GetFunctionsResponse lists the functions a provider offers outside its
// schema (GetFunctions).
type GetFunctionsResponse struct {
	Functions   map[string]Function
	Diagnostics diags.Diagnostics
}

// FunctionCaller is the capability of a provider instance to run its
// functions. Instances of plugin and in-process protocol 6 providers have
// it; the caller checks by type assertion. CallFunction needs no
// configured instance: Terraform calls functions on an unconfigured one.
type FunctionCaller interface {
	CallFunction(ctx context.Context, req CallFunctionRequest) CallFunctionResponse
	GetFunctions(ctx context.Context) GetFunctionsResponse
}

// ErrNoFunctions answers a call of a function on an instance that cannot
// run functions.
var ErrNoFunctions = errors.New("this provider offers no functions")

// CallFunction implements FunctionCaller for an instance the library
// started, through the instance it wraps.
func (t *tracked) CallFunction(ctx context.Context, req CallFunctionRequest) CallFunctionResponse {
	if fc, ok := t.Interface.(FunctionCaller); ok {
		return fc.CallFunction(ctx, req)
	}
	return CallFunctionResponse{Err: ErrNoFunctions}
}

// GetFunctions implements FunctionCaller for an instance the library
// started, through the instance it wraps.
func (t *tracked) GetFunctions(ctx context.Context) GetFunctionsResponse {
	if fc, ok := t.Interface.(FunctionCaller); ok {
		return fc.GetFunctions(ctx)
	}
	return GetFunctionsResponse{}
}

var _ FunctionCaller = (*tracked)(nil)
