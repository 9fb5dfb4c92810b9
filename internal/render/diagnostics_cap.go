package render

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
)

// MaxDiagnosticsShown is the most errors, and separately the most
// warnings, one render prints: 100. Past that a reader fixes the first and
// runs again; printing thousands (a misspelled argument repeated in a
// generated file, random bytes given as configuration) only buries the
// start and takes long to write. JSON output is never capped.
const MaxDiagnosticsShown = 100

// capDiagnostics keeps the first max errors and the first max warnings of
// ds, in order, and ends with one diagnostic per severity saying how many
// were left out.
func capDiagnostics(ds diags.Diagnostics, max int) diags.Diagnostics {
	shown := map[diags.Severity]int{}
	omitted := map[diags.Severity]int{}
	out := make(diags.Diagnostics, 0, min(len(ds), 2*max+2))
	for _, d := range ds {
		if shown[d.Severity] >= max {
			omitted[d.Severity]++
			continue
		}
		shown[d.Severity]++
		out = append(out, d)
	}
	for _, sev := range []diags.Severity{diags.Warning, diags.Error} {
		if n := omitted[sev]; n > 0 {
			out = append(out, omittedNote(sev, n, max))
		}
	}
	return out
}

func omittedNote(sev diags.Severity, n, max int) diags.Diagnostic {
	kind := "errors"
	if sev == diags.Warning {
		kind = "warnings"
	}
	summary := fmt.Sprintf("%d more %s not shown", n, kind)
	if n == 1 {
		summary = fmt.Sprintf("1 more %s not shown", kind[:len(kind)-1])
	}
	return diags.Diagnostic{
		Severity: sev,
		Summary:  summary,
		Detail: fmt.Sprintf("Cairn shows the first %d %s of a run; %d %s were found in all. Fix those shown and run the command again.",
			max, kind, max+n, kind),
	}
}
