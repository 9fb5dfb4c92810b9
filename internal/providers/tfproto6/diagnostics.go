package tfproto6

import (
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers/wire"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// convertDiagnostics converts a server's diagnostics (see wire.Diagnostic).
func convertDiagnostics(in []*tfprotov6.Diagnostic) diags.Diagnostics {
	if len(in) == 0 {
		return nil
	}
	out := make(diags.Diagnostics, 0, len(in))
	for _, d := range in {
		if d != nil {
			out = append(out, wire.Diagnostic(d.Severity == tfprotov6.DiagnosticSeverityWarning, d.Summary, d.Detail, d.Attribute))
		}
	}
	return out
}

// deferred reports a deferral the engine did not allow.
func deferred(method string, d *tfprotov6.Deferred) diags.Diagnostics {
	if d == nil {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Provider deferred the operation",
		"The provider answered %s with a deferral (reason %s), but Cairn does not allow deferrals. This is a bug in the provider.", method, d.Reason)}
}

// callFailed and invoke are wire's, named for brevity in the operations.
var callFailed = wire.CallFailed

func invoke[R any](c *codec, call func() (*R, error)) (*R, error) { return wire.Invoke(&c.Codec, call) }
