package server

import (
	"context"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/diags"
)

// Logger receives messages for the Pulumi engine to show beside a
// resource; Serve's connection to the engine is one.
type Logger interface {
	Log(ctx context.Context, sev pulumirpc.LogSeverity, urn resource.URN, msg string) error
}

type discard struct{}

func (discard) Log(context.Context, pulumirpc.LogSeverity, resource.URN, string) error { return nil }

// failure is an error status with a one-line summary and its detail, the
// shape every Cairn error has.
func failure(summary, detail string) error {
	return status.Error(codes.Unknown, summary+": "+detail)
}

// diagsError turns the errors among ds into one status, each as
// "summary: detail", and sends the warnings to the engine's log.
func (s *Server) diagsError(ctx context.Context, urn resource.URN, ds diags.Diagnostics) error {
	s.warn(ctx, urn, ds)
	var msgs []string
	for _, d := range ds {
		if d.Severity == diags.Error {
			msgs = append(msgs, describe(d))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return status.Error(codes.Unknown, strings.Join(msgs, "\n\n"))
}

// warn sends the warnings among ds to the engine's log.
func (s *Server) warn(ctx context.Context, urn resource.URN, ds diags.Diagnostics) {
	for _, d := range ds {
		if d.Severity == diags.Warning {
			_ = s.host.Log(ctx, pulumirpc.LogSeverity_WARNING, urn, describe(d))
		}
	}
}

func describe(d diags.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}
