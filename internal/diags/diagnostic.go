package diags

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Severity is Error or Warning.
type Severity byte

const (
	// Error stops the operation; the command exits 1.
	Error Severity = 'E'
	// Warning is shown but does not stop the operation.
	Warning Severity = 'W'
)

// Diagnostic is one problem report.
type Diagnostic struct {
	Severity Severity
	Summary  string
	Detail   string
	// Subject is the narrowest range the problem is about, if known.
	Subject *hcl.Range
	// Context is a wider range (the whole block) shown around Subject.
	Context *hcl.Range
	// Path is an attribute path within a resource's value, set by providers
	// and contract checks; InBody turns it into a Subject.
	Path cty.Path
	// Address names the object the problem is about (a resource instance
	// address, a provider), shown beside the range when there is one.
	Address string
	// Values says what the references in the expression at Subject were
	// when the problem was found ("var.x is 1"), shown under the source
	// lines. It never describes a sensitive value.
	Values []ExprValue
	// FromCheckBlock marks a check block's report: a failed or undecided
	// assertion, or its scoped data source's failure. Apply checks again,
	// so an apply that asks no approval leaves out the plan's, as
	// Terraform does.
	FromCheckBlock bool
}

// ExprValue is one reference's value in a diagnostic: Traversal is the
// reference as written (var.x, self.tags["a"]), Statement what it was
// ("is 1", "is null", "is a string").
type ExprValue struct {
	Traversal string
	Statement string
}

// Diagnostics is a list of diagnostics in the order they were found.
type Diagnostics []Diagnostic

// Errorf returns an error diagnostic with no source location.
func Errorf(summary, detailFormat string, args ...any) Diagnostic {
	return Diagnostic{Severity: Error, Summary: summary, Detail: fmt.Sprintf(detailFormat, args...)}
}

// At returns an error diagnostic about the given range.
func At(rng hcl.Range, summary, detail string) Diagnostic {
	return Diagnostic{Severity: Error, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

// AttributeError returns an error diagnostic about an attribute path, the way
// providers and contract checks report problems.
func AttributeError(path cty.Path, summary, detail string) Diagnostic {
	return Diagnostic{Severity: Error, Summary: summary, Detail: detail, Path: path}
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Append adds items to the list and returns it. Each item may be a
// Diagnostic, Diagnostics, *hcl.Diagnostic, hcl.Diagnostics or error (an
// error becomes a sourceless error diagnostic); nil items are skipped.
func (ds Diagnostics) Append(items ...any) Diagnostics {
	for _, it := range items {
		switch v := it.(type) {
		case nil:
		case Diagnostic:
			ds = append(ds, v)
		case Diagnostics:
			ds = append(ds, v...)
		case *hcl.Diagnostic:
			ds = append(ds, fromHCL(v))
		case hcl.Diagnostics:
			for _, d := range v {
				ds = append(ds, fromHCL(d))
			}
		case error:
			var wrapped Diagnostics
			if errors.As(v, &wrapped) {
				ds = append(ds, wrapped...)
				continue
			}
			ds = append(ds, Diagnostic{Severity: Error, Summary: v.Error()})
		default:
			panic(fmt.Sprintf("diags.Append: unsupported item %T", it))
		}
	}
	return ds
}

func fromHCL(d *hcl.Diagnostic) Diagnostic {
	sev := Error
	if d.Severity == hcl.DiagWarning {
		sev = Warning
	}
	return Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail, Subject: d.Subject, Context: d.Context}
}

// Error implements error for a list with errors, so diagnostics can travel
// through an error return and be recovered with errors.As.
func (ds Diagnostics) Error() string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.String())
	}
	return b.String()
}

// Err returns the list as an error if it has errors, else nil.
func (ds Diagnostics) Err() error {
	if !ds.HasErrors() {
		return nil
	}
	return ds
}

// String returns a one-line form: "file:line:col: Summary: Detail".
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Subject != nil {
		fmt.Fprintf(&b, "%s:%d:%d: ", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
	}
	b.WriteString(d.Summary)
	if d.Detail != "" {
		b.WriteString(": ")
		b.WriteString(d.Detail)
	}
	return b.String()
}

// WithAddressOf is WithAddress for an address value, formatted only when
// there are diagnostics to name it in (the common case has none, and
// formatting thousands of addresses for nothing shows up in profiles).
func (ds Diagnostics) WithAddressOf(addr fmt.Stringer) Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	return ds.WithAddress(addr.String())
}

// WithAddress returns copies of the diagnostics naming addr where they name
// nothing yet.
func (ds Diagnostics) WithAddress(addr string) Diagnostics {
	out := make(Diagnostics, len(ds))
	for i, d := range ds {
		if d.Address == "" {
			d.Address = addr
		}
		out[i] = d
	}
	return out
}
