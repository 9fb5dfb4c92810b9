package configs

// chunkCuts returns up to n-1 byte offsets at which src can be cut into
// pieces of about equal size, each at the start of a top-level item, or nil
// when the scan finds something it does not follow exactly (then the file
// is parsed whole).
func chunkCuts(src []byte, n int) []int {
	starts := topLevelStarts(src)
	if len(starts) < n {
		return nil
	}
	var cuts []int
	j := 0
	for i := 1; i < n; i++ {
		target := len(src) * i / n
		for j < len(starts) && starts[j] < target {
			j++
		}
		if j == len(starts) {
			break
		}
		if starts[j] > 0 && (len(cuts) == 0 || starts[j] > cuts[len(cuts)-1]) {
			cuts = append(cuts, starts[j])
		}
	}
	return cuts
}

// frame is one level of the scanner's nesting: an expression (with its
// bracket depth), a quoted template, or a heredoc with its end marker.
type frame struct {
	kind   byte // 'e', '"', 'h'
	depth  int
	marker string
}

// topLevelStarts lists the offsets of lines that start a top-level item:
// at column 1, a letter or underscore, outside any bracket, string,
// template, comment or heredoc. It returns nil on anything unexpected.
func topLevelStarts(src []byte) []int {
	s := &chunkScanner{src: src, stack: []frame{{kind: 'e'}}}
	var out []int
	lineStart := true
	for s.i < len(src) {
		if lineStart && len(s.stack) == 1 && s.stack[0].depth == 0 && isNameStart(src[s.i]) {
			out = append(out, s.i)
		}
		var ok bool
		lineStart, ok = s.step()
		if !ok {
			return nil
		}
	}
	if len(s.stack) != 1 || s.stack[0].depth != 0 {
		return nil
	}
	return out
}

type chunkScanner struct {
	src   []byte
	i     int
	stack []frame
}

// step consumes one token's worth of input and reports whether the next
// byte starts a line.
func (s *chunkScanner) step() (lineStart, ok bool) {
	top := &s.stack[len(s.stack)-1]
	switch top.kind {
	case '"':
		return s.inQuoted()
	case 'h':
		return s.inHeredoc(top.marker)
	}
	return s.inExpr(top)
}

func (s *chunkScanner) inExpr(top *frame) (bool, bool) {
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
			return false, false
		}
		s.i = end + 2
	case c == '"':
		s.stack = append(s.stack, frame{kind: '"'})
		s.i++
	case c == '<' && s.peek(1) == '<':
		return s.heredocStart()
	case c == '{' || c == '[' || c == '(':
		top.depth++
		s.i++
	case c == '}' || c == ']' || c == ')':
		s.i++
		if top.depth > 0 {
			top.depth--
			return false, true
		}
		if c != '}' || len(s.stack) == 1 {
			return false, false // unbalanced
		}
		s.stack = s.stack[:len(s.stack)-1] // the end of a template interpolation
	default:
		s.i++
	}
	return false, true
}

func (s *chunkScanner) inQuoted() (bool, bool) {
	c := s.src[s.i]
	switch {
	case c == '\n':
		return false, false // a quoted string cannot span lines
	case c == '\\':
		s.i += 2
	case c == '"':
		s.stack = s.stack[:len(s.stack)-1]
		s.i++
	default:
		s.template()
	}
	return false, true
}

func (s *chunkScanner) inHeredoc(marker string) (bool, bool) {
	end := indexFrom(s.src, s.i, "\n")
	if end < 0 {
		return false, false
	}
	// Only a whole line can end a heredoc; after an interpolation the
	// scan resumes mid-line.
	if (s.i == 0 || s.src[s.i-1] == '\n') && trimSpace(s.src[s.i:end]) == marker {
		s.stack = s.stack[:len(s.stack)-1]
		s.i = end // the newline ends the item, back in expression mode
		return false, true
	}
	for s.i < end {
		if !s.template() {
			continue
		}
		if len(s.stack) > 0 && s.stack[len(s.stack)-1].kind == 'e' {
			// An interpolation opened on this line; the expression
			// scanner takes over until it closes.
			return false, true
		}
	}
	s.i = end + 1
	return false, true
}

// template consumes one byte of template text, or a template sequence
// opener (pushing an expression frame); it reports whether it pushed.
func (s *chunkScanner) template() bool {
	c, next := s.src[s.i], s.peek(1)
	switch {
	case (c == '$' || c == '%') && next == c && s.peek(2) == '{':
		s.i += 3 // $${ and %%{ are literal
	case (c == '$' || c == '%') && next == '{':
		s.stack = append(s.stack, frame{kind: 'e'})
		s.i += 2
		return true
	default:
		s.i++
	}
	return false
}

// heredocStart recognises <<MARKER or <<-MARKER at the end of a line.
func (s *chunkScanner) heredocStart() (bool, bool) {
	j := s.i + 2
	if j < len(s.src) && s.src[j] == '-' {
		j++
	}
	k := j
	for k < len(s.src) && isNameByte(s.src[k]) {
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
		return false, false
	}
	s.stack = append(s.stack, frame{kind: 'h', marker: string(s.src[j:k])})
	s.i = nl + 1
	return false, true
}

func (s *chunkScanner) peek(d int) byte {
	if s.i+d < len(s.src) {
		return s.src[s.i+d]
	}
	return 0
}

func isNameStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

func isNameByte(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' || c == '-' }

func indexFrom(src []byte, from int, sub string) int {
	for i := from; i+len(sub) <= len(src); i++ {
		if string(src[i:i+len(sub)]) == sub {
			return i
		}
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
