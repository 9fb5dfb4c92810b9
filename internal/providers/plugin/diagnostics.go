package plugin

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// diagnostics reads a repeated Diagnostic field. Protocols 5 and 6 number
// severities alike (ERROR 1, WARNING 2) and so does tfprotov6; tfproto6
// treats anything but a warning as an error.
func diagnostics(x message, name string) []*tfprotov6.Diagnostic {
	list := x.list(name)
	if len(list) == 0 {
		return nil
	}
	out := make([]*tfprotov6.Diagnostic, 0, len(list))
	for _, d := range list {
		out = append(out, &tfprotov6.Diagnostic{
			Severity:  tfprotov6.DiagnosticSeverity(d.enum("severity")),
			Summary:   d.str("summary"),
			Detail:    d.str("detail"),
			Attribute: attributePath(d.msg("attribute")),
		})
	}
	return out
}

// attributePath reads an AttributePath message; nil when absent. A step
// with no selector set ends the path there, as a path the engine cannot
// follow further.
func attributePath(x message) *tftypes.AttributePath {
	if !x.valid() {
		return nil
	}
	p := tftypes.NewAttributePath()
	for _, s := range x.list("steps") {
		switch {
		case s.has("attribute_name"):
			p = p.WithAttributeName(s.str("attribute_name"))
		case s.has("element_key_string"):
			p = p.WithElementKeyString(s.str("element_key_string"))
		case s.has("element_key_int"):
			p = p.WithElementKeyInt(int(s.int("element_key_int")))
		default:
			return p
		}
	}
	return p
}

// attributePaths reads a repeated AttributePath field (requires_replace).
func attributePaths(x message, name string) []*tftypes.AttributePath {
	list := x.list(name)
	if len(list) == 0 {
		return nil
	}
	out := make([]*tftypes.AttributePath, 0, len(list))
	for _, p := range list {
		out = append(out, attributePath(p))
	}
	return out
}

// deferred reads a Deferred field; nil when the provider did not defer.
func deferred(x message, name string) *tfprotov6.Deferred {
	d := x.msg(name)
	if !d.valid() {
		return nil
	}
	return &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(d.enum("reason"))}
}
