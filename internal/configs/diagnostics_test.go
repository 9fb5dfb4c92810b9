package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// diagnosticCase is one configuration with the diagnostics it must produce.
type diagnosticCase struct {
	reason string
	files  map[string]string
	want   []diagWant
}

// TestDiagnostics checks every load-time rule's diagnostic: its severity,
// summary, and that it points at the narrowest range (the label, argument
// name or expression at fault).
func TestDiagnostics(t *testing.T) {
	for name, tc := range diagnosticCases() {
		t.Run(name, func(t *testing.T) {
			_, ds := loadStrings(tc.files)
			if diff := cmp.Diff(tc.want, summarizeDiags(ds)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s\nfull diagnostics:\n%s", tc.reason, diff, ds.Error())
			}
		})
	}
}

// diagnosticCases returns the table of TestDiagnostics, kept in one file
// per area; the fuzz target uses its files as seeds.
func diagnosticCases() map[string]diagnosticCase {
	cases := map[string]diagnosticCase{}
	for _, part := range []map[string]diagnosticCase{
		terraformDiagnosticCases(), valueDiagnosticCases(), resourceDiagnosticCases(), importDiagnosticCases(),
		overrideDiagnosticCases(), moduleDiagnosticCases(), checkDiagnosticCases(), providerInstanceDiagnosticCases(),
	} {
		for name, tc := range part {
			cases[name] = tc
		}
	}
	return cases
}
