package hclscan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func nest(open, inner, close string, n int) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// TestCheckDepth: source nested past MaxDepth is refused at the byte that
// goes one level too deep; brackets inside strings, comments and heredoc
// text do not count, so deep-looking but shallow files pass.
func TestCheckDepth(t *testing.T) {
	tests := map[string]struct {
		reason string
		src    string
		syntax Syntax
		want   string // "line:column" of the refusal, "" for none
	}{
		"shallow":       {src: "a = [1, (2), {b = \"c\"}]\n", syntax: Native},
		"at the limit":  {src: "x = " + nest("(", "1", ")", MaxDepth), syntax: Native},
		"parentheses":   {src: "x = " + nest("(", "1", ")", 70_000), syntax: Native, want: "1:1005"},
		"mixed":         {src: "x =\n  " + nest("[{(", "1", ")}]", 400), syntax: Native, want: "2:1003"},
		"interpolation": {reason: "each string and interpolation is a level", src: "x = " + nest(`"${`, "1", `}"`, 600), syntax: Native, want: "1:1505"},
		"brackets in a string": {
			reason: "text in a quoted string is not nesting",
			src:    `x = "` + strings.Repeat("(", 5000) + "\"\n", syntax: Native,
		},
		"brackets in comments": {
			src: "# " + strings.Repeat("[", 5000) + "\n// " + strings.Repeat("{", 5000) + "\n/* " + strings.Repeat("(", 5000) + " */\nx = 1\n", syntax: Native,
		},
		"brackets in a heredoc": {
			src: "x = <<EOT\n" + strings.Repeat("(", 5000) + "\nEOT\n", syntax: Native,
		},
		"interpolations in a heredoc": {
			src: "x = <<EOT\n" + nest("${", "1", "}", 1) + strings.Repeat("${(1)}", 3000) + "\nEOT\n", syntax: Native,
		},
		"unterminated string recovers": {
			reason: "the parser carries on after a newline ends a broken string, and so must the scan",
			src:    "x = \"abc\ny = " + nest("(", "1", ")", 2000), syntax: Native, want: "2:1005",
		},
		"stray closers do not hide depth": {
			src: strings.Repeat(")", 5000) + "\nx = " + nest("[", "", "]", 2000), syntax: Native, want: "2:1005",
		},
		"json arrays": {src: nest("[", "", "]", 70_000), syntax: JSON, want: "1:1001"},
		"json brackets in strings": {
			src: `{"a": "` + strings.Repeat("[", 5000) + `"}`, syntax: JSON,
		},
		"json escaped quote": {
			src: `{"a": "\"` + strings.Repeat("{", 5000) + `"}`, syntax: JSON,
		},
		"json interpolation": {
			reason: "HCL evaluates JSON strings as templates, so their interpolations nest too",
			src:    `{"a": "${` + nest("(", "1", ")", 2000) + `}"}`, syntax: JSON, want: "1:7",
		},
		"json interpolation escaped": {
			reason: `\u0024{ is "${" once the string is decoded`,
			src:    `{"a": "\u0024{` + nest("(", "1", ")", 2000) + `}"}`, syntax: JSON, want: "1:7",
		},
		"template": {src: "a ${" + nest("(", "1", ")", 2000) + "} b", syntax: Template, want: "1:1004"},
		"template text": {
			reason: "brackets and quotes in template text are text",
			src:    strings.Repeat("(\"[", 2000), syntax: Template,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := CheckDepth([]byte(tc.src), "f", hcl.InitialPos, tc.syntax)
			got := ""
			if d != nil {
				got = fmt.Sprintf("%d:%d", d.Subject.Start.Line, d.Subject.Start.Column)
				if d.Summary != "Nesting too deep" || d.Severity != hcl.DiagError {
					t.Errorf("diagnostic %v", d)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nrefused at (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCheckDepthStart: ranges are offset by where the source starts, as
// for an expression inside a JSON string.
func TestCheckDepthStart(t *testing.T) {
	start := hcl.Pos{Line: 3, Column: 10, Byte: 50}
	d := CheckDepth([]byte(nest("(", "1", ")", 2000)), "main.tf.json", start, Native)
	if d == nil {
		t.Fatal("not refused")
	}
	want := hcl.Pos{Line: 3, Column: 10 + MaxDepth, Byte: 50 + MaxDepth}
	if diff := cmp.Diff(want, d.Subject.Start); diff != "" {
		t.Errorf("start (-want +got):\n%s", diff)
	}
}

// BenchmarkCheckDepth scans a 1 MiB file with more openers than MaxDepth,
// so the scan is not skipped: the cost every large file pays before
// parsing.
func BenchmarkCheckDepth(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "resource \"terraform_data\" \"r%d\" {\n  input = { a = [\"${var.x}\", (1 + 2)] }\n}\n", i)
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if d := CheckDepth(src, "main.tf", hcl.InitialPos, Native); d != nil {
			b.Fatal(d)
		}
	}
}
