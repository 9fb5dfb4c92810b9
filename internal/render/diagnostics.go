package render

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/mitchellh/go-wordwrap"
)

// Diagnostics writes diagnostics as Terraform 1.5.7 prints them, warnings
// first, then the rest in source order (the order Terraform sorts them in).
//
// With colour each diagnostic sits in a box drawn down its left edge
// ("╷", "│", "╵"), red for errors and yellow for warnings, the offending
// source underlined. Without colour it is plain text with no box, exactly
// as Terraform prints with -no-color, for logs and tools that parse it.
//
// Each diagnostic reads: the severity and summary; "with ADDRESS," when it
// names an object; for a source range, where it is and the source lines;
// then the detail, word-wrapped (lines starting with a space are kept as
// they are). Where Terraform says "on main.tf line 3, in ...", Cairn says
// "on main.tf:3:7, in ...": the column is Cairn's house format. sources
// holds the configuration files by name; a range in a file not there is
// shown without its source.
//
// At most MaxDiagnosticsShown errors and as many warnings are printed; a
// last diagnostic says how many more there were. Each source file is
// indexed and parsed once for the whole call (sourceIndex).
func Diagnostics(w io.Writer, ds diags.Diagnostics, sources map[string][]byte, opts Options) error {
	bw := bufio.NewWriter(w)
	index := NewSourceIndex(sources)
	for _, d := range capDiagnostics(consolidateWarnings(sortDiagnostics(ds)), MaxDiagnosticsShown) {
		d = redactDiagnostic(d, opts.Secrets)
		if opts.Color {
			bw.WriteString(boxedDiagnostic(d, index, opts))
		} else {
			bw.WriteString(plainDiagnostic(d, index, opts.width()))
		}
	}
	return bw.Flush()
}

// sortDiagnostics returns the diagnostics in Terraform's order: warnings
// before errors, those without a source before those with one, then by
// file (fewer path segments first) and position. The sort is stable.
func sortDiagnostics(ds diags.Diagnostics) diags.Diagnostics {
	out := append(diags.Diagnostics(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Severity != b.Severity:
			return a.Severity == diags.Warning
		case (a.Subject == nil) != (b.Subject == nil):
			return a.Subject == nil
		case a.Subject == nil || *a.Subject == *b.Subject:
			return false
		case a.Subject.Filename != b.Subject.Filename:
			sep := string(filepath.Separator)
			na, nb := strings.Count(a.Subject.Filename, sep), strings.Count(b.Subject.Filename, sep)
			if na != nb {
				return na < nb
			}
			return a.Subject.Filename < b.Subject.Filename
		case a.Subject.Start.Byte != b.Subject.Start.Byte:
			return a.Subject.Start.Byte < b.Subject.Start.Byte
		}
		return a.Subject.End.Byte < b.Subject.End.Byte
	})
	return out
}

// consolidateWarnings folds repeated warnings into the first of their kind:
// a warning with a source range whose summary was already seen is dropped,
// and the first one's detail ends "(and N more similar warnings
// elsewhere)", so a warning about a construct used a hundred times is
// printed once, as Terraform does. Check blocks' reports are never folded:
// each is about a different check, and Terraform shows every one.
func consolidateWarnings(ds diags.Diagnostics) diags.Diagnostics {
	out := make(diags.Diagnostics, 0, len(ds))
	first := map[string]int{}
	extra := map[string]int{}
	for _, d := range ds {
		if d.Severity != diags.Warning || d.Subject == nil || d.FromCheckBlock {
			out = append(out, d)
			continue
		}
		if _, seen := first[d.Summary]; seen {
			extra[d.Summary]++
			continue
		}
		first[d.Summary] = len(out)
		out = append(out, d)
	}
	for summary, n := range extra {
		d := &out[first[summary]]
		note := "(and one more similar warning elsewhere)"
		if n > 1 {
			note = fmt.Sprintf("(and %d more similar warnings elsewhere)", n)
		}
		if d.Detail != "" {
			d.Detail += "\n\n" + note
		} else {
			d.Detail = note
		}
	}
	return out
}

// plainDiagnostic formats one diagnostic without colour or box.
func plainDiagnostic(d diags.Diagnostic, sources *SourceIndex, width int) string {
	var b strings.Builder
	b.WriteString("\n")
	b.WriteString(severityWord(d.Severity))
	b.WriteString(": ")
	b.WriteString(d.Summary)
	b.WriteString("\n\n")
	writeSnippet(&b, d, sources, painter{})
	writeDetail(&b, d.Detail, width-1)
	return b.String()
}

// boxedDiagnostic formats one diagnostic in colour, in its box.
func boxedDiagnostic(d diags.Diagnostic, sources *SourceIndex, opts Options) string {
	p := opts.painter()
	tone := "[red]"
	if d.Severity == diags.Warning {
		tone = "[yellow]"
	}
	var body strings.Builder
	body.WriteString(p.paint("[bold]" + tone + severityWord(d.Severity) + ": [reset]"))
	fmt.Fprintf(&body, p.paint("[bold]%s[reset]\n\n"), d.Summary)
	writeSnippet(&body, d, sources, p)
	// Leave room for the box's left edge.
	writeDetail(&body, d.Detail, opts.width()-3)

	rule := p.paint(tone + "│[reset] ")
	blank := strings.TrimSpace(rule)
	var b strings.Builder
	b.WriteString(p.paint(tone + "╷[reset]"))
	b.WriteByte('\n')
	sc := bufio.NewScanner(strings.NewReader(body.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if sc.Text() == "" {
			b.WriteString(blank)
		} else {
			b.WriteString(rule)
			b.WriteString(sc.Text())
		}
		b.WriteByte('\n')
	}
	b.WriteString(p.paint(tone + "╵[reset]"))
	b.WriteByte('\n')
	return b.String()
}

func severityWord(s diags.Severity) string {
	if s == diags.Warning {
		return "Warning"
	}
	return "Error"
}

// writeDetail writes the detail, each line wrapped to width columns unless
// it starts with a space.
func writeDetail(b *strings.Builder, detail string, width int) {
	if detail == "" {
		return
	}
	for _, line := range strings.Split(detail, "\n") {
		if width > 0 && !strings.HasPrefix(line, " ") {
			line = wordwrap.WrapString(line, uint(width))
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
}
