package tfproto6

import (
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// convertDiagnostics converts a server's diagnostics. A diagnostic of
// invalid severity counts as an error, so a broken server cannot make a
// failure look like success.
func convertDiagnostics(in []*tfprotov6.Diagnostic) diags.Diagnostics {
	if len(in) == 0 {
		return nil
	}
	out := make(diags.Diagnostics, 0, len(in))
	for _, d := range in {
		if d == nil {
			continue
		}
		sev := diags.Error
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			sev = diags.Warning
		}
		out = append(out, diags.Diagnostic{
			Severity: sev,
			Summary:  d.Summary,
			Detail:   d.Detail,
			Path:     attributePath(d.Attribute),
		})
	}
	return out
}

// attributePath converts a tftypes attribute path to a cty path. A step
// into a set element (ElementKeyValue) has no cty equivalent the engine can
// follow, so the path stops before it and names the set, as the protocol's
// wire form does.
func attributePath(p *tftypes.AttributePath) cty.Path {
	if p == nil {
		return nil
	}
	steps := p.Steps()
	out := make(cty.Path, 0, len(steps))
	for _, s := range steps {
		switch s := s.(type) {
		case tftypes.AttributeName:
			out = append(out, cty.GetAttrStep{Name: string(s)})
		case tftypes.ElementKeyString:
			out = append(out, cty.IndexStep{Key: cty.StringVal(string(s))})
		case tftypes.ElementKeyInt:
			out = append(out, cty.IndexStep{Key: cty.NumberIntVal(int64(s))})
		default:
			return out
		}
	}
	return out
}

// attributePaths converts a list of paths, as RequiresReplace carries them.
func attributePaths(in []*tftypes.AttributePath) []cty.Path {
	if len(in) == 0 {
		return nil
	}
	out := make([]cty.Path, 0, len(in))
	for _, p := range in {
		if p == nil {
			continue
		}
		out = append(out, attributePath(p))
	}
	return out
}
