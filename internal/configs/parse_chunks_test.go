package configs

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// dumpBody describes a body by everything decoding reads from it: block
// types, labels and ranges, and attribute names with their expressions'
// ranges and source text, recursively.
func dumpBody(b *hclsyntax.Body, src []byte, indent string, out *strings.Builder) {
	names := make([]string, 0, len(b.Attributes))
	for n := range b.Attributes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r := b.Attributes[n].Expr.Range()
		fmt.Fprintf(out, "%s%s = %s %q\n", indent, n, r, src[r.Start.Byte:r.End.Byte])
	}
	for _, blk := range b.Blocks {
		fmt.Fprintf(out, "%s%s %q %s %s\n", indent, blk.Type, blk.Labels, blk.DefRange(), blk.Body.SrcRange)
		dumpBody(blk.Body, src, indent+"  ", out)
	}
	fmt.Fprintf(out, "%send %s %s\n", indent, b.SrcRange, b.EndRange)
}

func wholeDump(t testing.TB, src []byte) (string, bool) {
	f, ds := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
	if ds.HasErrors() {
		return "", false
	}
	var b strings.Builder
	dumpBody(f.Body.(*hclsyntax.Body), src, "", &b)
	return b.String(), true
}

// chunkCases are files whose every top-level block starts a line, with the
// constructs the cut scanner must step over: heredocs (whose lines look
// like blocks), templates with braces and nested strings, comments of all
// three kinds, multi-line brackets and CRLF line ends.
var chunkCases = map[string]string{
	"Plain": strings.Repeat("resource \"t\" \"a\" {\n  x = 1\n}\n", 20),
	"Heredoc": `resource "t" "a" {
  x = <<EOT
resource "fake" "block" {
}
EOT
}
resource "t" "b" {
  y = <<-EOT
    locals {
    ${var.z}
    EOT
}
locals { z = 1 }
resource "t" "c" {}
`,
	"Templates": `locals {
  a = "${"}"}"
  b = "%{ if true }{%{ endif }"
  c = "$${not} %%{literal}"
}
resource "t" "a" {
  y = "${
  var.x
  }"
}
resource "t" "b" {}
`,
	"Comments": `# resource "no" "pe" {
// resource "no" "pe" {
/*
resource "no" "pe" {
*/
resource "t" "a" {
  x = [
    1,
  ]
}
resource "t" "b" { x = { a = 1 } }
`,
	"CRLF": strings.ReplaceAll(strings.Repeat("resource \"t\" \"a\" {\n  x = 1\n}\n", 5), "\n", "\r\n"),
}

func TestParseNativeChunkedMatchesWholeParse(t *testing.T) {
	for name, src := range chunkCases {
		for _, n := range []int{2, 3, 4, 8} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				want, ok := wholeDump(t, []byte(src))
				if !ok {
					t.Fatalf("the case does not parse")
				}
				body, ok := parseNativeChunked("main.tf", []byte(src), n)
				if !ok {
					t.Skip("not cut (fewer top-level items than pieces)")
				}
				var got strings.Builder
				dumpBody(body.(*hclsyntax.Body), []byte(src), "", &got)
				if diff := cmp.Diff(want, got.String()); diff != "" {
					t.Errorf("-whole +chunked:\n%s", diff)
				}
			})
		}
	}
}

// TestParseNativeChunkedRefuses: what a piece cannot represent exactly
// falls back to the whole-file parse.
func TestParseNativeChunkedRefuses(t *testing.T) {
	cases := map[string]string{
		"SyntaxError":        strings.Repeat("resource \"t\" \"a\" {}\n", 5) + "resource \"t\" {\n",
		"TopLevelAttribute":  strings.Repeat("resource \"t\" \"a\" {}\n", 5) + "x = 1\n" + strings.Repeat("resource \"t\" \"a\" {}\n", 5),
		"UnterminatedString": "resource \"t\" \"a\" {\n  x = \"abc\n}\n" + strings.Repeat("resource \"t\" \"a\" {}\n", 5),
		"OneItem":            "resource \"t\" \"a\" {}\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			if _, ok := parseNativeChunked("main.tf", []byte(src), 2); ok {
				t.Errorf("chunked parse accepted it; the whole-file parse must decide")
			}
		})
	}
}

// FuzzParseNativeChunked: whenever the chunked parse succeeds, the whole
// file parses without errors to exactly the same body.
func FuzzParseNativeChunked(f *testing.F) {
	for _, src := range chunkCases {
		f.Add(src, 2)
	}
	f.Fuzz(func(t *testing.T, src string, n int) {
		n = 2 + (n&0xff)%6
		body, ok := parseNativeChunked("main.tf", []byte(src), n)
		if !ok {
			return
		}
		want, whole := wholeDump(t, []byte(src))
		if !whole {
			t.Fatalf("chunked parse succeeded where the whole file has errors")
		}
		var got strings.Builder
		dumpBody(body.(*hclsyntax.Body), []byte(src), "", &got)
		if got.String() != want {
			t.Fatalf("chunked parse differs:\n%s", cmp.Diff(want, got.String()))
		}
	})
}

// TestLoadLargeFileInPieces: a file large enough to be parsed in pieces
// loads every block, and a decoding problem far into it is reported at its
// true line and column.
func TestLoadLargeFileInPieces(t *testing.T) {
	var b strings.Builder
	const n = 6000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
	}
	b.WriteString("resource \"terraform_data\" \"bad\" {\n  count    = 1\n  for_each = {}\n}\n")
	src := b.String()
	if chunksFor([]byte(src)) < 2 {
		t.Skip("one CPU: files are parsed whole")
	}
	m, ds := LoadFiles(".", map[string][]byte{"main.tf": []byte(src)})
	if len(m.ManagedResources) != n+1 {
		t.Errorf("loaded %d resources, want %d", len(m.ManagedResources), n+1)
	}
	if len(ds) != 1 || ds[0].Subject == nil {
		t.Fatalf("diagnostics: %v", ds)
	}
	if got, want := fmt.Sprintf("%d:%d", ds[0].Subject.Start.Line, ds[0].Subject.Start.Column), fmt.Sprintf("%d:%d", 3*n+3, 3); got != want {
		t.Errorf("%s reported at %s, want %s", ds[0].Summary, got, want)
	}
}
