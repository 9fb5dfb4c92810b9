package plugin

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// functions reads a map<string, Function> field (GetProviderSchema's and
// GetFunctions' answers). The error names the function whose declaration
// is malformed: a provider bug, reported as a failed call.
func functions(x message, field string) (map[string]*tfprotov6.Function, error) {
	in := x.msgMap(field)
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]*tfprotov6.Function, len(in))
	for name, f := range in {
		fn, err := function(f)
		if err != nil {
			return nil, fmt.Errorf("function %q: %w", name, err)
		}
		out[name] = fn
	}
	return out, nil
}

func function(x message) (*tfprotov6.Function, error) {
	out := &tfprotov6.Function{
		Summary:            x.str("summary"),
		Description:        x.str("description"),
		DeprecationMessage: x.str("deprecation_message"),
	}
	for i, p := range x.list("parameters") {
		param, err := parameter(p)
		if err != nil {
			return nil, fmt.Errorf("parameter %d: %w", i, err)
		}
		out.Parameters = append(out.Parameters, param)
	}
	if v := x.msg("variadic_parameter"); v.valid() {
		param, err := parameter(v)
		if err != nil {
			return nil, fmt.Errorf("variadic parameter: %w", err)
		}
		out.VariadicParameter = param
	}
	if r := x.msg("return"); r.valid() {
		t, err := tftypes.ParseJSONType(r.bytes("type")) //nolint:staticcheck // the wire form is JSON
		if err != nil {
			return nil, fmt.Errorf("return type %q: %w", r.bytes("type"), err)
		}
		out.Return = &tfprotov6.FunctionReturn{Type: t}
	}
	return out, nil
}

func parameter(x message) (*tfprotov6.FunctionParameter, error) {
	t, err := tftypes.ParseJSONType(x.bytes("type")) //nolint:staticcheck // the wire form is JSON
	if err != nil {
		return nil, fmt.Errorf("type %q: %w", x.bytes("type"), err)
	}
	return &tfprotov6.FunctionParameter{
		Name:               x.str("name"),
		Type:               t,
		AllowNullValue:     x.boolean("allow_null_value"),
		AllowUnknownValues: x.boolean("allow_unknown_values"),
		Description:        x.str("description"),
	}, nil
}

// CallFunction sends each argument as a DynamicValue of its own, in order
// (variadic arguments after the parameters'), as Terraform does. A
// function error comes back in the answer, with the argument at fault
// when the provider named one.
func (s *server) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	resp, err := s.conn.call(ctx, "CallFunction", func(m message) {
		m.setStr("name", req.Name)
		for _, arg := range req.Arguments {
			dv := m.appendMsg("arguments")
			if arg != nil {
				dv.setBytes("msgpack", arg.MsgPack)
				dv.setBytes("json", arg.JSON)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	out := &tfprotov6.CallFunctionResponse{Result: value(resp, "result")}
	if fe := resp.msg("error"); fe.valid() {
		out.Error = &tfprotov6.FunctionError{Text: fe.str("text")}
		if fe.has("function_argument") {
			i := fe.int("function_argument")
			out.Error.FunctionArgument = &i
		}
	}
	return out, nil
}

// GetFunctions asks for the functions a provider offers; protocol 5.5 and
// 6.5 have the RPC.
func (s *server) GetFunctions(ctx context.Context, _ *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	resp, err := s.conn.call(ctx, "GetFunctions", nil)
	if err != nil {
		return nil, err
	}
	fs, err := functions(resp, "functions")
	if err != nil {
		return nil, err
	}
	return &tfprotov6.GetFunctionsResponse{Functions: fs, Diagnostics: diagnostics(resp, "diagnostics")}, nil
}
