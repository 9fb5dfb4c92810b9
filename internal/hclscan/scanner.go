package hclscan

import "bytes"

// frame is one level of the scanner's nesting: an expression (with its
// bracket depth), a quoted template, a heredoc with its end marker, or a
// bare template (a template file, which has no closing delimiter).
type frame struct {
	kind   byte // 'e', '"', 'h', 't'
	depth  int
	marker string
}

// Scanner follows native-syntax source one token's worth at a time. Strict
// scanners stop at the first thing they do not follow exactly (Step
// reports !ok); lenient ones recover as the HCL parser does (a newline ends
// an unterminated string, a stray closing bracket is skipped) and only
// stop at an unterminated block comment, where the rest is comment.
type Scanner struct {
	src     []byte
	i       int
	stack   []frame
	depth   int // open brackets in all frames, plus frames above the first
	lenient bool
}

func (s *Scanner) push(f frame) {
	s.stack = append(s.stack, f)
	s.depth++
}

// pop closes the top frame, with any brackets left open in it.
func (s *Scanner) pop() {
	s.depth -= 1 + s.stack[len(s.stack)-1].depth
	s.stack = s.stack[:len(s.stack)-1]
}

// NewScanner returns a strict scanner over src, starting in expression
// context (the top level of a configuration file).
func NewScanner(src []byte) *Scanner {
	return &Scanner{src: src, stack: []frame{{kind: 'e'}}}
}

// TopLevelStarts lists the offsets of lines that start a top-level item
// of a native-syntax file: at column 1, a letter or underscore, outside
// any bracket, string, template, comment or heredoc. It returns nil on
// anything a strict scanner does not follow.
func TopLevelStarts(src []byte) []int {
	s := NewScanner(src)
	var out []int
	lineStart := true
	for !s.Done() {
		if lineStart && s.AtTop() && IsNameStart(src[s.Offset()]) {
			out = append(out, s.Offset())
		}
		var ok bool
		lineStart, ok = s.Step()
		if !ok {
			return nil
		}
	}
	if !s.AtTop() {
		return nil
	}
	return out
}

// Offset returns the offset of the next byte to scan.
func (s *Scanner) Offset() int { return s.i }

// Done reports whether the whole source has been scanned.
func (s *Scanner) Done() bool { return s.i >= len(s.src) }

// AtTop reports whether the scanner is outside every bracket, string,
// template and heredoc.
func (s *Scanner) AtTop() bool { return len(s.stack) == 1 && s.stack[0].depth == 0 }

// Depth returns how deeply the scanner is nested: every open bracket,
// string, interpolation and heredoc counts one level.
func (s *Scanner) Depth() int { return s.depth }

// Step consumes one token's worth of input and reports whether the next
// byte starts a line. ok is false when a strict scanner meets something it
// does not follow, or any scanner meets an unterminated block comment.
func (s *Scanner) Step() (lineStart, ok bool) {
	top := &s.stack[len(s.stack)-1]
	switch top.kind {
	case '"':
		return s.inQuoted()
	case 'h':
		return s.inHeredoc(top.marker)
	case 't':
		s.template()
		return s.src[s.i-1] == '\n', true
	}
	return s.inExpr(top)
}

func (s *Scanner) inExpr(top *frame) (bool, bool) {
	src, c := s.src, s.src[s.i]
	switch {
	case c == '\n':
		s.i++
		return true, true
	case c == '#' || (c == '/' && s.peek(1) == '/'):
		for s.i < len(src) && src[s.i] != '\n' {
			s.i++
		}
	case c == '/' && s.peek(1) == '*':
		end := indexFrom(src, s.i+2, "*/")
		if end < 0 {
			s.i = len(src)
			return false, false
		}
		s.i = end + 2
	case c == '"':
		s.push(frame{kind: '"'})
		s.i++
	case c == '<' && s.peek(1) == '<':
		return s.heredocStart()
	case c == '{' || c == '[' || c == '(':
		top.depth++
		s.depth++
		s.i++
	case c == '}' || c == ']' || c == ')':
		s.i++
		if top.depth > 0 {
			top.depth--
			s.depth--
			return false, true
		}
		if c != '}' || len(s.stack) == 1 {
			return false, s.lenient // unbalanced
		}
		s.pop() // the end of a template interpolation
	default:
		s.i = skipPlain(src, s.i+1, &exprSpecial)
	}
	return false, true
}

// exprSpecial and quotedSpecial mark the bytes that may change the
// scanner's state in an expression and in quoted template text; runs of
// other bytes are skipped at once.
var exprSpecial, quotedSpecial = byteSet("\n#/\"<{[(}])"), byteSet("\n\\\"$%")

func byteSet(chars string) (set [256]bool) {
	for i := range len(chars) {
		set[chars[i]] = true
	}
	return set
}

// skipPlain returns the offset of the first byte at or after i that set
// marks, or len(src).
func skipPlain(src []byte, i int, set *[256]bool) int {
	for i < len(src) && !set[src[i]] {
		i++
	}
	return i
}

func (s *Scanner) inQuoted() (bool, bool) {
	c := s.src[s.i]
	switch {
	case c == '\n':
		// A quoted string cannot span lines; the parser reports it and
		// carries on after the newline.
		if !s.lenient {
			return false, false
		}
		s.pop()
	case c == '\\':
		s.i += 2
	case c == '"':
		s.pop()
		s.i++
	case c == '$' || c == '%':
		s.template()
	default:
		s.i = skipPlain(s.src, s.i+1, &quotedSpecial)
	}
	return false, true
}

func (s *Scanner) inHeredoc(marker string) (bool, bool) {
	// Only a whole line can end a heredoc; after an interpolation the
	// scan resumes mid-line, and each line is looked at once.
	if s.i == 0 || s.src[s.i-1] == '\n' {
		end := indexFrom(s.src, s.i, "\n")
		if end < 0 {
			return s.unterminated()
		}
		if trimSpace(s.src[s.i:end]) == marker {
			s.pop()
			s.i = end // the newline ends the item, back in expression mode
			return false, true
		}
	}
	for s.i < len(s.src) {
		if s.src[s.i] == '\n' {
			s.i++
			return false, true
		}
		if s.template() {
			// An interpolation opened on this line; the expression
			// scanner takes over until it closes.
			return false, true
		}
	}
	return s.unterminated()
}

// unterminated ends a heredoc the source ends inside: a strict scanner
// stops, a lenient one closes it.
func (s *Scanner) unterminated() (bool, bool) {
	if !s.lenient {
		return false, false
	}
	s.pop()
	s.i = len(s.src)
	return false, true
}

// template consumes one byte of template text, or a template sequence
// opener (pushing an expression frame); it reports whether it pushed.
func (s *Scanner) template() bool {
	c, next := s.src[s.i], s.peek(1)
	switch {
	case (c == '$' || c == '%') && next == c && s.peek(2) == '{':
		s.i += 3 // $${ and %%{ are literal
	case (c == '$' || c == '%') && next == '{':
		s.push(frame{kind: 'e'})
		s.i += 2
		return true
	default:
		s.i++
	}
	return false
}

// heredocStart recognises <<MARKER or <<-MARKER at the end of a line.
func (s *Scanner) heredocStart() (bool, bool) {
	j := s.i + 2
	if j < len(s.src) && s.src[j] == '-' {
		j++
	}
	k := j
	for k < len(s.src) && IsNameByte(s.src[k]) {
		k++
	}
	if k == j {
		s.i += 2 // not a heredoc: a << operator cannot occur in HCL, but be safe
		return false, true
	}
	nl := k
	if nl < len(s.src) && s.src[nl] == '\r' {
		nl++
	}
	if nl >= len(s.src) || s.src[nl] != '\n' {
		s.i = k
		return false, s.lenient
	}
	s.push(frame{kind: 'h', marker: string(s.src[j:k])})
	s.i = nl + 1
	return false, true
}

func (s *Scanner) peek(d int) byte {
	if s.i+d < len(s.src) {
		return s.src[s.i+d]
	}
	return 0
}

// IsNameStart reports whether c can start an HCL identifier.
func IsNameStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// IsNameByte reports whether c can continue an HCL identifier.
func IsNameByte(c byte) bool { return IsNameStart(c) || c >= '0' && c <= '9' || c == '-' }

func indexFrom(src []byte, from int, sub string) int {
	if from > len(src) {
		return -1
	}
	if i := bytes.Index(src[from:], []byte(sub)); i >= 0 {
		return from + i
	}
	return -1
}

func trimSpace(b []byte) string {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return string(b)
}
