package render

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// writeSnippet writes the part of a diagnostic that says where it is: the
// object it names ("with ..."), then the location, the enclosing block and
// the source lines, the subject underlined when painting.
func writeSnippet(b *strings.Builder, d diags.Diagnostic, sources map[string][]byte, p painter) {
	if d.Address != "" {
		fmt.Fprintf(b, "  with %s,\n", d.Address)
	}
	if d.Subject == nil {
		return
	}
	subject := *d.Subject
	if subject.End == (hcl.Pos{}) {
		subject.End = subject.Start
	}
	around := subject
	if d.Context != nil {
		around = *d.Context
	}
	around = hcl.RangeOver(around, subject)
	// Empty ranges would show nothing; widen them to one byte.
	if around.Empty() {
		around.End.Byte++
		around.End.Column++
	}
	if subject.Empty() {
		subject.End.Byte++
		subject.End.Column++
	}
	where := fmt.Sprintf("%s:%d:%d", subject.Filename, subject.Start.Line, subject.Start.Column)
	src, ok := sources[subject.Filename]
	if !ok {
		fmt.Fprintf(b, "  on %s:\n  (source code not available)\n\n", where)
		return
	}
	context := ""
	if s := enclosingBlock(src, subject); s != "" {
		context = ", in " + s
	}
	fmt.Fprintf(b, "  on %s%s:\n", where, context)

	code, first, start := sourceLines(src, subject.Filename, around)
	lo := clamp(subject.Start.Byte-start, 0, len(code))
	hi := clamp(lo+(subject.End.Byte-subject.Start.Byte), lo, len(code))
	code = fmt.Sprintf(p.paint("%s[underline]%s[reset]%s"), code[:lo], code[lo:hi], code[hi:])
	for i, line := range strings.Split(code, "\n") {
		fmt.Fprintf(b, "%4d: %s\n", first+i, line)
	}
	writeExprValues(b, d.Values, p)
	b.WriteByte('\n')
}

// sourceLines returns the whole lines of src that rng touches, the number
// of the first and the byte offset where they start.
func sourceLines(src []byte, filename string, rng hcl.Range) (code string, firstLine, startByte int) {
	var lines strings.Builder
	firstLine = rng.Start.Line
	sc := hcl.NewRangeScanner(src, filename, bufio.ScanLines)
	started := false
	for sc.Scan() {
		lr := sc.Range()
		if !lr.Overlaps(rng) {
			continue
		}
		if !started {
			started = true
			startByte = lr.Start.Byte
			firstLine = lr.Start.Line
		}
		lines.Write(lr.SliceBytes(src))
		lines.WriteByte('\n')
	}
	return strings.TrimSuffix(lines.String(), "\n"), firstLine, startByte
}

// enclosingBlock describes the top-level block that holds rng, e.g.
// resource "terraform_data" "a", or returns "".
func enclosingBlock(src []byte, rng hcl.Range) string {
	parser := hclparse.NewParser()
	var f *hcl.File
	if strings.HasSuffix(rng.Filename, ".json") {
		f, _ = parser.ParseJSON(src, rng.Filename)
	} else {
		f, _ = parser.ParseHCL(src, rng.Filename)
	}
	if f == nil {
		return ""
	}
	return hcled.ContextString(f, rng.Start.Byte-1)
}

func clamp(v, lo, hi int) int {
	return min(max(v, lo), hi)
}
