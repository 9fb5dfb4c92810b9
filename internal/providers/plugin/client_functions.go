package plugin

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/internal/providers"
)

var _ providers.FunctionCaller = (*Client)(nil)

// CallFunction implements providers.FunctionCaller. It needs no
// configured instance. When the call itself fails (the process crashed or
// closed), the error names the plugin and the function.
func (c *Client) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	fc, ok := c.inner.(providers.FunctionCaller)
	if !ok {
		return providers.CallFunctionResponse{Err: providers.ErrNoFunctions}
	}
	resp := fc.CallFunction(ctx, req)
	if err := rec.failure(); err != nil {
		resp.Err = errors.New(c.failure("CallFunction ("+req.Name+")", err))
	}
	return resp
}

// GetFunctions implements providers.FunctionCaller.
func (c *Client) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	fc, ok := c.inner.(providers.FunctionCaller)
	if !ok {
		return providers.GetFunctionsResponse{}
	}
	resp := fc.GetFunctions(ctx)
	resp.Diagnostics = c.explain("GetFunctions", rec.failure(), resp.Diagnostics)
	return resp
}

// Metadata is what GetMetadata says of a provider: the names of what it
// offers and its server capabilities, without schemas.
type Metadata struct {
	ResourceTypes, DataSources, Functions []string
	PlanDestroy                           bool
	GetProviderSchemaOptional             bool
	MoveResourceState                     bool
}

// ErrNoMetadata is GetMetadata's error from a plugin older than protocol
// 6.4 or 5.4, which does not know the RPC: the caller falls back on
// GetProviderSchema, as the protocol asks clients to.
var ErrNoMetadata = errors.New("the plugin does not implement GetMetadata")

// GetMetadata asks the plugin for its Metadata (protocol 6.4, 5.4). A
// plugin that does not implement the RPC gives ErrNoMetadata; other
// errors name the plugin.
func (c *Client) GetMetadata(ctx context.Context) (Metadata, error) {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp, err := c.srv.GetMetadata(ctx, &tfprotov6.GetMetadataRequest{})
	if err != nil {
		if unimplemented(err) {
			return Metadata{}, ErrNoMetadata
		}
		if ferr := rec.failure(); ferr != nil {
			return Metadata{}, errors.New(c.failure("GetMetadata", ferr))
		}
		return Metadata{}, err
	}
	for _, d := range resp.Diagnostics {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityError {
			return Metadata{}, fmt.Errorf("provider %s answered GetMetadata with an error: %s: %s", c.name, d.Summary, d.Detail)
		}
	}
	var out Metadata
	for _, r := range resp.Resources {
		out.ResourceTypes = append(out.ResourceTypes, r.TypeName)
	}
	for _, d := range resp.DataSources {
		out.DataSources = append(out.DataSources, d.TypeName)
	}
	for _, f := range resp.Functions {
		out.Functions = append(out.Functions, f.Name)
	}
	if caps := resp.ServerCapabilities; caps != nil {
		out.PlanDestroy, out.GetProviderSchemaOptional, out.MoveResourceState = caps.PlanDestroy, caps.GetProviderSchemaOptional, caps.MoveResourceState
	}
	return out, nil
}

// unimplemented reports a gRPC Unimplemented status: the plugin's protocol
// minor version predates the RPC.
func unimplemented(err error) bool { return status.Code(err) == codes.Unimplemented }
