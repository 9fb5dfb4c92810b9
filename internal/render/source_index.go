package render

import (
	"bytes"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/internal/hclscan"
)

// wholeParseMax is the largest file parsed whole to name the block that
// encloses a diagnostic ("in resource ..."). A larger file is cut at its
// top-level blocks and only the enclosing block is parsed; one that cannot
// be cut (garbage, typically) is shown without the block name. Parsing
// 10 MB of random bytes whole took seconds and gigabytes.
const wholeParseMax = 1 << 20

// SourceIndex holds what rendering diagnostics needs of each source file,
// worked out once per file for a whole render however many diagnostics
// point into it: where its lines start, and its parse for naming the
// enclosing block. Before, each diagnostic re-parsed and re-scanned its
// file, so 2,000 diagnostics in one file took minutes. It is not safe for
// concurrent use: one renderer owns it.
type SourceIndex struct {
	sources map[string][]byte
	files   map[string]*indexedSource
}

// NewSourceIndex returns an index over sources (file name to bytes), which
// it reads lazily and never modifies.
func NewSourceIndex(sources map[string][]byte) *SourceIndex {
	return &SourceIndex{sources: sources, files: map[string]*indexedSource{}}
}

// file returns the indexed file named name, or false if it is not among
// the sources (a nil index has none).
func (x *SourceIndex) file(name string) (*indexedSource, bool) {
	if x == nil {
		return nil, false
	}
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
	// Files over wholeParseMax: where top-level blocks start, and the
	// blocks parsed so far by start offset.
	blockStarts []int
	blocks      map[int]*hcl.File
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
// resource "terraform_data" "a", or returns "". The file, or for a large
// file the block, is parsed the first time it is asked, unless it is too
// deeply nested to parse safely.
func (f *indexedSource) enclosingBlock(rng hcl.Range) string {
	if !f.parsed {
		f.parsed = true
		f.parse, f.blockStarts = parseForContext(f.name, f.src)
	}
	file := f.parse
	if file == nil {
		file = f.blockAt(rng.Start.Byte)
	}
	if file == nil {
		return ""
	}
	return hcled.ContextString(file, rng.Start.Byte-1)
}

// parseForContext parses a file whole, or for a native-syntax file over
// wholeParseMax finds where its top-level blocks start instead.
func parseForContext(name string, src []byte) (*hcl.File, []int) {
	syntax := hclscan.Native
	if strings.HasSuffix(name, ".json") {
		syntax = hclscan.JSON
	}
	if hclscan.CheckDepth(src, name, hcl.InitialPos, syntax) != nil {
		return nil, nil
	}
	if len(src) > wholeParseMax {
		if syntax == hclscan.JSON {
			return nil, nil
		}
		return nil, hclscan.TopLevelStarts(src)
	}
	parser := hclparse.NewParser()
	var f *hcl.File
	if syntax == hclscan.JSON {
		f, _ = parser.ParseJSON(src, name)
	} else {
		f, _ = parser.ParseHCL(src, name)
	}
	return f, nil
}

// blockAt parses the top-level block of a large file that holds offset,
// from its true start position so ranges are the whole file's.
func (f *indexedSource) blockAt(offset int) *hcl.File {
	// The last block starting at or before offset.
	i := sort.SearchInts(f.blockStarts, offset+1) - 1
	if i < 0 {
		return nil
	}
	start := f.blockStarts[i]
	if file, ok := f.blocks[start]; ok {
		return file
	}
	end := len(f.src)
	if i+1 < len(f.blockStarts) {
		end = f.blockStarts[i+1]
	}
	line := sort.SearchInts(f.lineStarts, start+1) // lineStarts[line-1] == start
	file, _ := hclsyntax.ParseConfig(f.src[start:end], f.name, hcl.Pos{Line: line, Column: 1, Byte: start})
	if f.blocks == nil {
		f.blocks = map[int]*hcl.File{}
	}
	f.blocks[start] = file
	return file
}
