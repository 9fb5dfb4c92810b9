package hclscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// MaxDepth is the deepest nesting Cairn parses: brackets, strings,
// template interpolations and heredocs in the native syntax, arrays,
// objects and interpolations in JSON. hashicorp/hcl parses recursively,
// and about 60,000 levels exhaust Go's 1 GB goroutine stack, which ends
// the process with no chance to recover. Real configurations nest a few
// dozen levels; 1,000 leaves room for generated ones and keeps the
// parsers, evaluation and rendering far from the stack limit.
const MaxDepth = 1000

// Syntax says how to read the source given to CheckDepth.
type Syntax byte

const (
	// Native is a native-syntax file or expression (.tf, .tfvars, -var).
	Native Syntax = 'N'
	// JSON is a JSON-syntax file (.tf.json, .tfvars.json). Strings are
	// read as templates too, as HCL evaluates them.
	JSON Syntax = 'J'
	// Template is a bare template, as templatefile reads.
	Template Syntax = 'T'
)

// CheckDepth returns an error diagnostic located where src first nests
// deeper than MaxDepth, or nil. start is the position of src's first byte
// (hcl.InitialPos for a whole file). It runs in time linear in len(src)
// and never recurses, so it is safe on any input.
func CheckDepth(src []byte, filename string, start hcl.Pos, syntax Syntax) *hcl.Diagnostic {
	if openers(src) <= MaxDepth {
		return nil // cannot nest deeper than it opens
	}
	var off int
	switch syntax {
	case JSON:
		off = jsonTooDeep(src)
	default:
		off = nativeTooDeep(src, syntax == Template)
	}
	if off < 0 {
		return nil
	}
	at := posAt(src, start, off)
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nesting too deep",
		Detail: fmt.Sprintf("This opens more than %d nested brackets, strings or templates, the most Cairn reads. "+
			"Flatten the expression, for example by moving inner parts into locals.", MaxDepth),
		Subject: &hcl.Range{Filename: filename, Start: at, End: posAt(src, start, min(off+1, len(src)))},
	}
}

// openers counts the bytes that can open a nesting level: an upper bound
// on the depth, cheap enough to spare most files the scan.
func openers(src []byte) int {
	n := 0
	for _, c := range src {
		switch c {
		case '(', '[', '{', '"', '<':
			n++
		}
	}
	return n
}

// nativeTooDeep returns the offset of the byte at which a native-syntax
// scan first exceeds MaxDepth, or -1.
func nativeTooDeep(src []byte, template bool) int {
	s := NewScanner(src)
	s.lenient = true
	if template {
		s.stack[0].kind = 't'
	}
	for !s.Done() {
		at := s.Offset()
		if _, ok := s.Step(); !ok {
			return -1 // the rest is a comment
		}
		if s.Depth() > MaxDepth {
			return at
		}
	}
	return -1
}

// jsonTooDeep is nativeTooDeep for JSON: arrays and objects nest, and a
// string holding a template interpolation adds the template's own depth.
func jsonTooDeep(src []byte) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			depth++
			if depth > MaxDepth {
				return i
			}
		case ']', '}':
			depth = max(depth-1, 0)
		case '"':
			end := stringEnd(src, i)
			if stringTooDeep(src[i:end], depth) {
				return i
			}
			i = end - 1
		}
	}
	return -1
}

// stringEnd returns the offset just after the JSON string opening at i,
// or len(src) when it is unterminated.
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// stringTooDeep reports whether a JSON string literal, read as the
// template HCL evaluates it as, takes depth beyond MaxDepth.
func stringTooDeep(lit []byte, depth int) bool {
	// An escape such as \u0024 can spell "${" too.
	if !hasTemplateSequence(lit) && !bytes.Contains(lit, []byte(`\u`)) {
		return false
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		// Not a valid string: the JSON parser rejects it unread.
		return false
	}
	tmpl := []byte(s)
	if !hasTemplateSequence(tmpl) {
		return false
	}
	if depth+openers(tmpl) <= MaxDepth {
		return false
	}
	sc := NewScanner(tmpl)
	sc.lenient = true
	sc.stack[0].kind = 't'
	for !sc.Done() {
		if _, ok := sc.Step(); !ok {
			return false
		}
		if depth+sc.Depth() > MaxDepth {
			return true
		}
	}
	return false
}

// posAt returns the position of byte offset off in src, which starts at
// start. Columns count characters, as hcl's do for ASCII and most text.
func posAt(src []byte, start hcl.Pos, off int) hcl.Pos {
	pos := start
	lineStart := 0
	for i, c := range src[:off] {
		if c == '\n' {
			pos.Line++
			lineStart = i + 1
		}
	}
	if pos.Line == start.Line {
		pos.Column = start.Column + utf8.RuneCount(src[:off])
	} else {
		pos.Column = 1 + utf8.RuneCount(src[lineStart:off])
	}
	pos.Byte = start.Byte + off
	return pos
}

func hasTemplateSequence(b []byte) bool {
	return bytes.Contains(b, []byte("${")) || bytes.Contains(b, []byte("%{"))
}
