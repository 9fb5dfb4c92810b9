package configs

import (
	"runtime"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// chunkedParseMin is the size from which a native-syntax file is parsed in
// parallel chunks. Smaller files parse in well under a millisecond.
const chunkedParseMin = 256 << 10

// chunksFor returns how many pieces to parse a native-syntax file in: one
// per core, up to 8, for files of chunkedParseMin and more.
func chunksFor(src []byte) int {
	if len(src) < chunkedParseMin {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 8)
}

// parseNativeChunked parses a native-syntax file in n parallel pieces: the
// file is cut at the starts of top-level blocks and each piece is parsed
// with its true start position, so every range is what a whole-file parse
// gives. ok is false when the file cannot be cut safely or a piece does
// not parse cleanly; the caller then parses the whole file, so diagnostics
// always come from one parse of the whole file.
//
// Cutting only where a top-level block starts (a line beginning with a
// name, outside any bracket, string, comment or heredoc) means a wrong cut
// would leave a piece ending inside an unfinished item, which fails to
// parse and so falls back.
func parseNativeChunked(name string, src []byte, n int) (body hcl.Body, ok bool) {
	cuts := chunkCuts(src, n)
	if len(cuts) == 0 {
		return nil, false
	}
	bounds := append(append([]int{0}, cuts...), len(src))
	bodies := make([]*hclsyntax.Body, len(bounds)-1)
	failed := make([]bool, len(bodies))
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if recover() != nil {
					failed[i] = true
				}
			}()
			start := startPos(src, bounds[i])
			f, ds := hclsyntax.ParseConfig(src[bounds[i]:bounds[i+1]], name, start)
			b, isSyntax := f.Body.(*hclsyntax.Body)
			failed[i] = ds.HasErrors() || !isSyntax || len(b.Attributes) > 0
			bodies[i] = b
		}()
	}
	wg.Wait()
	for _, f := range failed {
		if f {
			return nil, false
		}
	}
	return mergeBodies(bodies), true
}

// mergeBodies joins the bodies of consecutive pieces of one file into the
// body a whole-file parse gives.
func mergeBodies(bodies []*hclsyntax.Body) *hclsyntax.Body {
	last := bodies[len(bodies)-1]
	out := &hclsyntax.Body{
		Attributes: hclsyntax.Attributes{},
		SrcRange:   hcl.Range{Filename: last.SrcRange.Filename, Start: bodies[0].SrcRange.Start, End: last.SrcRange.End},
		EndRange:   last.EndRange,
	}
	for _, b := range bodies {
		out.Blocks = append(out.Blocks, b.Blocks...)
	}
	return out
}

// startPos returns the position of byte offset off, which starts a line.
func startPos(src []byte, off int) hcl.Pos {
	line := 1
	for _, c := range src[:off] {
		if c == '\n' {
			line++
		}
	}
	return hcl.Pos{Line: line, Column: 1, Byte: off}
}
