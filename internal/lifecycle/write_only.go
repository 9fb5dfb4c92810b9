package lifecycle

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// writeOnlyKept reports, as OpenTofu words it, every write-only attribute
// (protocol 6.8) a provider answered with a value: it is sent the
// configured value and must answer null, because whatever it answers goes
// into the plan or the state, which must never hold the secret. The value
// itself is not shown.
func (t *Target) writeOnlyKept(u cty.Value) diags.Diagnostics {
	if u == cty.NilVal || u.IsNull() || !t.Schema.HasWriteOnly() {
		return nil
	}
	var ds diags.Diagnostics
	for _, p := range t.Schema.StoredWriteOnlyPaths(u) {
		ds = append(ds, diags.Diagnostic{
			Severity: diags.Error,
			Summary:  "Invalid provider response",
			Detail: fmt.Sprintf("Resource type %q returned an actual value for the write-only attribute %q while it is meant to be nil. This is an issue in the provider SDK.",
				t.typeName(), diags.FormatPath(p)),
		})
	}
	return ds.WithAddressOf(t.Addr.ResourceInstance)
}
