package cfnschema

import "fmt"

// walker translates one schema document. It is used by one goroutine and
// discarded afterwards.
type walker struct {
	file     string
	src      []byte
	doc      *document
	tn       typeName
	opts     *options
	patterns *patternCache

	readOnly, createOnly, writeOnly pointerSet
	// immutable is set when the schema has a create handler but no update
	// handler: nothing can change in place, so every top-level property
	// is create-only.
	immutable bool

	// seen holds the plain pointers of every translated property, to report
	// readOnly/createOnly/writeOnly entries that name no property.
	seen map[string]bool
	// stack holds the definitions being expanded on the current path, to
	// detect recursion.
	stack []string
	// nodes counts translated attributes and types against the expansion
	// bound; tooLarge stops the walk once it is exceeded.
	nodes    int
	tooLarge bool
	diags    Diagnostics
	// suppress collects reasons the type cannot be served.
	suppress []string
}

// parent describes the value whose properties or elements are being
// translated.
type parent struct {
	path Path
	// pointer is the CloudFormation pointer of the value; plain is the same
	// without "*" segments, for matching pointerSets.
	pointer, plain   string
	top              bool
	optionalComputed bool
	computedOnly     bool
}

// elem returns the parent of a collection's elements: the same behaviour,
// one "*" level deeper.
func (p parent) elem() parent {
	p.path = p.path.child("*")
	p.pointer += "/*"
	p.top = false
	return p
}

// diag records a diagnostic at a JSON pointer of the schema document and
// returns a copy of it.
func (w *walker) diag(sev Severity, loc, summary, detail string) *Diagnostic {
	line, col := locatePointer(w.src, loc)
	d := Diagnostic{Severity: sev, File: w.file, Pointer: loc, Line: line, Column: col, Summary: summary, Detail: detail}
	w.diags = append(w.diags, d)
	return &d
}

func (w *walker) warnf(loc, summary, format string, args ...any) {
	w.diag(Warning, loc, summary, fmt.Sprintf(format, args...))
}
