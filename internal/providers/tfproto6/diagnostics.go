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

// deferred reports a deferral (protocol 6.6) the engine did not allow:
// Cairn sends deferral_allowed = false, as Terraform does without
// -allow-deferral, so a provider that defers anyway is at fault. The
// words are Terraform's; the caller adds the instance's address and
// location (lifecycle's Target).
func deferred(method string, d *tfprotov6.Deferred) diags.Diagnostics {
	if d == nil {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Provider deferred changes when Terraform did not allow deferrals",
		"The provider signaled a deferred action (reason %s, in its answer to %s) for this resource instance, but in this context deferrals are disabled. "+
			"This is a bug in the provider, please file an issue with the provider developers.", d.Reason, method)}
}

// callFailed and invoke are wire's, named for brevity in the operations.
var callFailed = wire.CallFailed

func invoke[R any](c *codec, call func() (*R, error)) (*R, error) { return wire.Invoke(&c.Codec, call) }
