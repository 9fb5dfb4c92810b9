package render

import (
	"bytes"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/cairn-iac/cairn/internal/hclscan"
)

// maxContextSource is the largest file whose enclosing block a diagnostic
// names ("in resource ..."): finding it takes a parse of the whole file,
// which for megabytes of garbage takes gigabytes.
const maxContextSource = 16 << 20

// sourceIndex holds what rendering diagnostics needs of each source file,
// worked out once per file for a whole render however many diagnostics
// point into it: where its lines start, and its parse for naming the
// enclosing block. Before, each diagnostic re-parsed and re-scanned its
// file, so 2,000 diagnostics in one file took minutes.
type sourceIndex struct {
	sources map[string][]byte
	files   map[string]*indexedSource
}

func newSourceIndex(sources map[string][]byte) *sourceIndex {
	return &sourceIndex{sources: sources, files: map[string]*indexedSource{}}
}

// file returns the indexed file named name, or false if it is not among
// the sources.
func (x *sourceIndex) file(name string) (*indexedSource, bool) {
	if f, ok := x.files[name]; ok {
		return f, true
	}
	src, ok := x.sources[name]
	if !ok {
		return nil, false
	}
	f := &indexedSource{name: name, src: src, lineStarts: lineStarts(src)}
	x.files[name] = f
	return f, true
}

// indexedSource is one file: its bytes, the offset of each line's start,
// and its parse once made.
type indexedSource struct {
	name       string
	src        []byte
	lineStarts []int
	parsed     bool
	parse      *hcl.File
}

func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte("\n"))+1)
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lines returns the whole lines of the file that rng touches, the number
// of the first and the byte offset where they start. A line is touched as
// hcl.Range.Overlaps says, so an empty line never is.
func (f *indexedSource) lines(rng hcl.Range) (code string, firstLine, startByte int) {
	var out strings.Builder
	firstLine = rng.Start.Line
	started := false
	// The first line that can touch rng is the one holding its start, or
	// the one before when rng starts at a line's beginning.
	i := max(sort.SearchInts(f.lineStarts, rng.Start.Byte+1)-2, 0)
	for ; i < len(f.lineStarts) && f.lineStarts[i] <= rng.End.Byte; i++ {
		lr := f.lineRange(i)
		if !lr.Overlaps(rng) {
			continue
		}
		if !started {
			started = true
			startByte, firstLine = lr.Start.Byte, i+1
		}
		out.Write(f.src[lr.Start.Byte:lr.End.Byte])
		out.WriteByte('\n')
	}
	return strings.TrimSuffix(out.String(), "\n"), firstLine, startByte
}

// lineRange is the range of line i (from 0) without its line ending, as
// bufio.ScanLines cuts lines.
func (f *indexedSource) lineRange(i int) hcl.Range {
	start := f.lineStarts[i]
	end := len(f.src)
	if i+1 < len(f.lineStarts) {
		end = f.lineStarts[i+1] - 1
	} else if end > start && f.src[end-1] == '\n' {
		end--
	}
	if end > start && f.src[end-1] == '\r' {
		end--
	}
	return hcl.Range{Filename: f.name, Start: hcl.Pos{Byte: start}, End: hcl.Pos{Byte: end}}
}

// enclosingBlock describes the top-level block that holds rng, e.g.
// resource "terraform_data" "a", or returns "". The file is parsed the
// first time it is asked, unless it is too large or too deeply nested to
// parse safely.
func (f *indexedSource) enclosingBlock(rng hcl.Range) string {
	if !f.parsed {
		f.parsed = true
		f.parse = parseForContext(f.name, f.src)
	}
	if f.parse == nil {
		return ""
	}
	return hcled.ContextString(f.parse, rng.Start.Byte-1)
}

func parseForContext(name string, src []byte) *hcl.File {
	syntax := hclscan.Native
	if strings.HasSuffix(name, ".json") {
		syntax = hclscan.JSON
	}
	if len(src) > maxContextSource || hclscan.CheckDepth(src, name, hcl.InitialPos, syntax) != nil {
		return nil
	}
	parser := hclparse.NewParser()
	var f *hcl.File
	if syntax == hclscan.JSON {
		f, _ = parser.ParseJSON(src, name)
	} else {
		f, _ = parser.ParseHCL(src, name)
	}
	return f
}
