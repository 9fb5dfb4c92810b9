package hclscan

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// FuzzCheckDepth feeds arbitrary bytes, optionally wrapped in many levels
// of brackets, to CheckDepth in each syntax and then, when it lets them
// through, to hcl's parsers. The properties: CheckDepth never panics or
// fails to finish; a refusal is located within the source; and whatever
// it lets through the parsers survive (a stack overflow would kill the
// fuzzing process, which the fuzzer reports).
func FuzzCheckDepth(f *testing.F) {
	for _, s := range []string{
		"x = (1)", "x = \"${a}\"", "x = <<EOT\n${(1)}\nEOT\n", "/* ( */ x = [1]",
		`{"a": ["${(1)}"]}`, "a ${b} %{ if c }d%{ endif }", "x = \"abc\ny = (((1)))",
	} {
		f.Add([]byte(s), uint8(0), uint16(0))
	}
	f.Add([]byte("1"), uint8(0), uint16(5000))
	f.Add([]byte(`"${1}"`), uint8(1), uint16(900))
	f.Fuzz(func(t *testing.T, core []byte, mode uint8, wrap uint16) {
		syntax := []Syntax{Native, JSON, Template}[int(mode)%3]
		open, close := "(", ")"
		if syntax == JSON {
			open, close = "[", "]"
		}
		if syntax == Template {
			open, close = "${(", ")}"
		}
		n := int(wrap) % 20_000
		src := []byte(strings.Repeat(open, n) + string(core) + strings.Repeat(close, n))
		d := CheckDepth(src, "f", hcl.InitialPos, syntax)
		if d != nil {
			if d.Subject == nil || d.Subject.Start.Byte < 0 || d.Subject.Start.Byte >= len(src) {
				t.Fatalf("refusal located outside the source: %v", d.Subject)
			}
			return
		}
		switch syntax {
		case Native:
			hclsyntax.ParseConfig(src, "f", hcl.InitialPos)
			hclsyntax.ParseExpression(src, "f", hcl.InitialPos)
		case JSON:
			// Evaluating reads each string as a template, parsed then.
			if file, _ := hcljson.Parse(src, "f"); file != nil {
				attrs, _ := file.Body.JustAttributes()
				for _, a := range attrs {
					a.Expr.Value(nil)
				}
			}
		case Template:
			hclsyntax.ParseTemplate(src, "f", hcl.InitialPos)
		}
	})
}
