package cfnschema

import (
	"fmt"
	"strings"
)

// Severity says whether a Diagnostic stopped a type from loading.
type Severity int

const (
	// Error means the type named by the diagnostic's file was not loaded.
	Error Severity = iota
	// Warning means the type loaded but something in its schema was ignored.
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic reports a problem in a schema document. It is written for the
// author of the schema: File and Pointer (a JSON pointer into the document,
// RFC 6901) locate the problem, Line and Column do so for an editor when they
// could be derived (0 otherwise).
type Diagnostic struct {
	Severity Severity
	File     string
	Pointer  string
	Line     int
	Column   int
	Summary  string
	Detail   string
}

// String renders the diagnostic on one line, as
// "file:line:col: severity: summary (at pointer): detail".
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
	}
	fmt.Fprintf(&b, ": %s: %s", d.Severity, d.Summary)
	if d.Pointer != "" {
		fmt.Fprintf(&b, " (at %s)", d.Pointer)
	}
	if d.Detail != "" {
		b.WriteString(": ")
		b.WriteString(d.Detail)
	}
	return b.String()
}

// Diagnostics is a list of diagnostics in the order they were found.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic has Error severity.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns only the diagnostics with Error severity.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}
