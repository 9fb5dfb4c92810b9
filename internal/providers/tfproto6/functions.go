package tfproto6

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/wire"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

var _ providers.FunctionCaller = (*Provider)(nil)

// convertFunctions converts a provider's function declarations. A function
// whose types cannot be converted is left out with an error naming it.
func convertFunctions(in map[string]*tfprotov6.Function) (map[string]providers.Function, diags.Diagnostics) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]providers.Function, len(in))
	var ds diags.Diagnostics
	names := make([]string, 0, len(in))
	for name := range in {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f, err := convertFunction(in[name])
		if err != nil {
			ds = ds.Append(fmt.Errorf("the provider's declaration of function %q cannot be used: %w", name, err))
			continue
		}
		out[name] = f
	}
	return out, ds
}

func convertFunction(in *tfprotov6.Function) (providers.Function, error) {
	if in == nil || in.Return == nil {
		return providers.Function{}, errors.New("it has no return type")
	}
	ret, err := wire.CtyType(in.Return.Type)
	if err != nil {
		return providers.Function{}, fmt.Errorf("return type: %w", err)
	}
	f := providers.Function{Return: ret, Summary: in.Summary, Description: in.Description, DeprecationMessage: in.DeprecationMessage}
	for i, p := range in.Parameters {
		cp, err := convertParameter(p)
		if err != nil {
			return providers.Function{}, fmt.Errorf("parameter %d: %w", i, err)
		}
		f.Parameters = append(f.Parameters, cp)
	}
	if in.VariadicParameter != nil {
		vp, err := convertParameter(in.VariadicParameter)
		if err != nil {
			return providers.Function{}, fmt.Errorf("variadic parameter: %w", err)
		}
		f.VariadicParameter = &vp
	}
	return f, nil
}

func convertParameter(in *tfprotov6.FunctionParameter) (providers.FunctionParameter, error) {
	if in == nil {
		return providers.FunctionParameter{}, errors.New("missing declaration")
	}
	t, err := wire.CtyType(in.Type)
	if err != nil {
		return providers.FunctionParameter{}, err
	}
	return providers.FunctionParameter{Name: in.Name, Type: t, AllowNullValue: in.AllowNullValue,
		AllowUnknownValues: in.AllowUnknownValues, Description: in.Description}, nil
}

// function returns the declaration of the named function: from the schema,
// else from GetFunctions (a provider may offer functions there only).
func (p *Provider) function(ctx context.Context, name string) (providers.Function, error) {
	s := p.schema(ctx)
	if s.Diagnostics.HasErrors() {
		return providers.Function{}, s.Diagnostics.Err()
	}
	if f, ok := s.Functions[name]; ok {
		return f, nil
	}
	more := p.GetFunctions(ctx)
	if more.Diagnostics.HasErrors() {
		return providers.Function{}, more.Diagnostics.Err()
	}
	if f, ok := more.Functions[name]; ok {
		return f, nil
	}
	return providers.Function{}, fmt.Errorf("the provider has no function %q", name)
}

// CallFunction implements providers.FunctionCaller. Each argument is
// encoded with its parameter's type (the variadic parameter's past the
// last parameter), as Terraform sends them. A function error from the
// provider comes back as a *providers.FunctionError; anything else that
// fails is the provider's or the adapter's bug.
func (p *Provider) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	const method = "CallFunction"
	f, err := p.function(ctx, req.Name)
	if err != nil {
		return providers.CallFunctionResponse{Err: err}
	}
	if len(req.Arguments) < len(f.Parameters) || (f.VariadicParameter == nil && len(req.Arguments) > len(f.Parameters)) {
		return providers.CallFunctionResponse{Err: fmt.Errorf("function %q takes %d arguments, not %d", req.Name, len(f.Parameters), len(req.Arguments))}
	}
	var c codec
	preq := &tfprotov6.CallFunctionRequest{Name: req.Name, Arguments: make([]*tfprotov6.DynamicValue, len(req.Arguments))}
	for i, arg := range req.Arguments {
		param := f.VariadicParameter
		if i < len(f.Parameters) {
			param = &f.Parameters[i]
		}
		preq.Arguments[i] = c.encode(fmt.Sprintf("argument %d", i+1), arg, param.Type)
	}
	presp, err := invoke(&c, func() (*tfprotov6.CallFunctionResponse, error) { return p.server.CallFunction(ctx, preq) })
	if err != nil {
		return providers.CallFunctionResponse{Err: fmt.Errorf("calling %s on the provider failed: %w", method, err)}
	}
	if fe := presp.Error; fe != nil {
		out := &providers.FunctionError{Text: fe.Text}
		if fe.FunctionArgument != nil {
			i := int(*fe.FunctionArgument)
			out.Argument = &i
		}
		return providers.CallFunctionResponse{Err: out}
	}
	if presp.Result == nil {
		return providers.CallFunctionResponse{Err: errors.New("the provider returned no result and no error")}
	}
	v := c.decode("result", presp.Result, f.Return)
	if c.Err != nil {
		return providers.CallFunctionResponse{Err: c.Err}
	}
	return providers.CallFunctionResponse{Result: v}
}

// GetFunctions implements providers.FunctionCaller.
func (p *Provider) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	var resp *tfprotov6.GetFunctionsResponse
	err := wire.Guard(func() error {
		var err error
		resp, err = p.server.GetFunctions(ctx, &tfprotov6.GetFunctionsRequest{})
		return err
	})
	switch {
	case err != nil:
		return providers.GetFunctionsResponse{Diagnostics: callFailed("GetFunctions", err)}
	case resp == nil:
		return providers.GetFunctionsResponse{Diagnostics: callFailed("GetFunctions", errors.New("no response"))}
	}
	fs, ds := convertFunctions(resp.Functions)
	return providers.GetFunctionsResponse{Functions: fs, Diagnostics: convertDiagnostics(resp.Diagnostics).Append(ds)}
}
