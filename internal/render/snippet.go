package render

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
)

// writeSnippet writes the part of a diagnostic that says where it is: the
// object it names ("with ..."), then the location, the enclosing block and
// the source lines, the subject underlined when painting.
func writeSnippet(b *strings.Builder, d diags.Diagnostic, sources *sourceIndex, p painter) {
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
	code = fmt.Sprintf(p.paint("%s[underline]%s[reset]%s"), code[:lo], code[lo:hi], code[hi:])
	for i, line := range strings.Split(code, "\n") {
		fmt.Fprintf(b, "%4d: %s\n", first+i, line)
	}
	b.WriteByte('\n')
}

func clamp(v, lo, hi int) int {
	return min(max(v, lo), hi)
}
