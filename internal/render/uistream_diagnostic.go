package render

import (
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
)

// uiDiagnostic is a diagnostic as the machine-readable UI stream carries
// it: what `terraform validate -json` and the stream's diagnostic messages
// hold.
type uiDiagnostic struct {
	Severity string     `json:"severity"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail"`
	Address  string     `json:"address,omitempty"`
	Range    *uiRange   `json:"range,omitempty"`
	Snippet  *uiSnippet `json:"snippet,omitempty"`
}

type uiPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type uiRange struct {
	Filename string `json:"filename"`
	Start    uiPos  `json:"start"`
	End      uiPos  `json:"end"`
}

// uiSnippet is the source around a diagnostic. Values are the values of
// the expression's references, as the human rendering shows them under the
// source lines; diags.Diagnostic never describes a sensitive one.
type uiSnippet struct {
	Context              *string       `json:"context"`
	Code                 string        `json:"code"`
	StartLine            int           `json:"start_line"`
	HighlightStartOffset int           `json:"highlight_start_offset"`
	HighlightEndOffset   int           `json:"highlight_end_offset"`
	Values               []uiExprValue `json:"values"`
}

// uiExprValue is one reference's value: "var.x" "is 1".
type uiExprValue struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// UIDiagnosticMessage returns the diagnostic message of d: level "error"
// or "warn", "Error: SUMMARY" or "Warning: SUMMARY", and the diagnostic
// with its range and, when sources holds its file, the source snippet. The
// secrets of the run (secrets, may be nil) are redacted from it, as from
// the human rendering (redactDiagnostic).
func UIDiagnosticMessage(d diags.Diagnostic, sources *SourceIndex, secrets *marks.Known) UIMessage {
	d = redactDiagnostic(d, secrets)
	out := uiDiagnostic{Severity: "error", Summary: d.Summary, Detail: d.Detail, Address: d.Address}
	level := "error"
	if d.Severity == diags.Warning {
		out.Severity, level = "warning", "warn"
	}
	if d.Subject != nil {
		out.Range, out.Snippet = uiLocation(d, sources)
	}
	return UIMessage{Level: level, Message: severityWord(d.Severity) + ": " + d.Summary, Type: "diagnostic",
		Fields: map[string]any{"diagnostic": out}}
}

// uiLocation returns the range of d's subject and, when its file is in
// sources, the lines around it (those of its context, if any) with the
// subject's offsets within them; the same lines the human rendering shows.
func uiLocation(d diags.Diagnostic, sources *SourceIndex) (*uiRange, *uiSnippet) {
	subject, around := snippetRanges(d)
	rng := &uiRange{
		Filename: subject.Filename,
		Start:    uiPos{subject.Start.Line, subject.Start.Column, subject.Start.Byte},
		End:      uiPos{subject.End.Line, subject.End.Column, subject.End.Byte},
	}
	f, ok := sources.file(subject.Filename)
	if !ok {
		return rng, nil
	}
	sn := &uiSnippet{StartLine: around.Start.Line, Values: make([]uiExprValue, 0, len(d.Values))}
	for _, v := range d.Values {
		sn.Values = append(sn.Values, uiExprValue{Traversal: v.Traversal, Statement: v.Statement})
	}
	if s := f.enclosingBlock(subject); s != "" {
		sn.Context = &s
	}
	code, _, start := f.lines(around)
	sn.Code = code
	sn.HighlightStartOffset = clamp(subject.Start.Byte-start, 0, len(code))
	sn.HighlightEndOffset = clamp(sn.HighlightStartOffset+(subject.End.Byte-subject.Start.Byte), sn.HighlightStartOffset, len(code))
	return rng, sn
}
