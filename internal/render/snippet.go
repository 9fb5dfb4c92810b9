package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
)

// writeSnippet writes the part of a diagnostic that says where it is: the
// object it names ("with ..."), then the location, the enclosing block and
// the source lines, the subject underlined when painting.
func writeSnippet(b *strings.Builder, d diags.Diagnostic, sources *SourceIndex, p painter) {
	if d.Address != "" {
		fmt.Fprintf(b, "  with %s,\n", d.Address)
	}
	if d.Subject == nil {
		return
	}
	subject, around := snippetRanges(d)
	where := fmt.Sprintf("%s:%d:%d", subject.Filename, subject.Start.Line, subject.Start.Column)
	src, ok := sources.file(subject.Filename)
	if !ok {
		fmt.Fprintf(b, "  on %s:\n  (source code not available)\n\n", where)
		return
	}
	context := ""
	if s := src.enclosingBlock(subject); s != "" {
		context = ", in " + s
	}
	fmt.Fprintf(b, "  on %s%s:\n", where, context)

	code, first, start := src.lines(around)
	lo := clamp(subject.Start.Byte-start, 0, len(code))
	hi := clamp(lo+(subject.End.Byte-subject.Start.Byte), lo, len(code))
	var lines []string
	if hasLongLine(code) {
		lines = trimmedLines(code, lo, hi, p)
	} else {
		code = fmt.Sprintf(p.paint("%s[underline]%s[reset]%s"), code[:lo], code[lo:hi], code[hi:])
		lines = strings.Split(code, "\n")
	}
	for i, line := range lines {
		fmt.Fprintf(b, "%4d: %s\n", first+i, line)
	}
	writeExprValues(b, d.Values, p)
	b.WriteByte('\n')
}

// maxSnippetLine is the longest source line a snippet shows whole, in
// bytes. A longer one (a minified .tf.json, 70,000 nested brackets) is
// cut to snippetMargin bytes either side of the subject, marked "…" where
// cut: otherwise each of a hundred diagnostics would print megabytes.
const (
	maxSnippetLine = 1000
	snippetMargin  = 200
)

func hasLongLine(code string) bool {
	for len(code) > maxSnippetLine {
		nl := strings.IndexByte(code, '\n')
		if nl < 0 || nl > maxSnippetLine {
			return true
		}
		code = code[nl+1:]
	}
	return false
}

// trimmedLines splits code into lines, cutting each long one around the
// part of the subject [lo, hi) it holds (or its start), and underlines
// the subject line by line.
func trimmedLines(code string, lo, hi int, p painter) []string {
	lines := strings.Split(code, "\n")
	pos := 0
	for i, line := range lines {
		a, c := clamp(lo-pos, 0, len(line)), clamp(hi-pos, 0, len(line))
		pos += len(line) + 1
		prefix, suffix := "", ""
		if len(line) > maxSnippetLine {
			from := runeStart(line, max(a-snippetMargin, 0))
			to := runeStart(line, min(max(c, a+1)+snippetMargin, len(line)))
			if from > 0 {
				prefix = "…"
			}
			if to < len(line) {
				suffix = "…"
			}
			line, a, c = line[from:to], clamp(a-from, 0, to-from), clamp(c-from, 0, to-from)
		}
		if a < c {
			line = line[:a] + p.paint("[underline]") + line[a:c] + p.paint("[reset]") + line[c:]
		}
		lines[i] = prefix + line + suffix
	}
	return lines
}

// runeStart moves i back to the start of the UTF-8 character it is in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func clamp(v, lo, hi int) int {
	return min(max(v, lo), hi)
}

// snippetRanges returns the range a diagnostic highlights and the range of
// lines shown around it (its context, if any, stretched over the subject),
// for the human and the -json renderings alike. d.Subject must be set.
// Empty ranges would show nothing, so they are widened to one byte.
func snippetRanges(d diags.Diagnostic) (subject, around hcl.Range) {
	subject = *d.Subject
	if subject.End == (hcl.Pos{}) {
		subject.End = subject.Start
	}
	around = subject
	if d.Context != nil {
		around = *d.Context
	}
	around = hcl.RangeOver(around, subject)
	if around.Empty() {
		around.End.Byte++
		around.End.Column++
	}
	if subject.Empty() {
		subject.End.Byte++
		subject.End.Column++
	}
	return subject, around
}
