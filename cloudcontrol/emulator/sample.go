package emulator

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// maxSampleRepeat bounds the repetitions a sample draws for *, + and
// open-ended {n,} when no length is asked for: enough to look real, short
// enough to meet most maxLength bounds.
const maxSampleRepeat = 6

// unbounded stands for "no upper limit" in length arithmetic.
const unbounded = 1 << 30

// maxSampleLen bounds the length a sample aims at: a schema's minLength
// is the schema author's to choose, and a value is never made huge to
// meet one.
const maxSampleLen = 4096

// sample draws a string that the regular expression pattern matches,
// for invented values whose schema gives only a pattern (ids, ARNs, S3
// URIs). want is the length to aim for (a schema's minLength, say), or
// -1 for a natural one; the result is as close to it as the pattern
// allows. It reports false when the pattern does not parse as RE2 syntax
// (lookarounds, back references): ECMAScript has a little RE2 lacks.
func (g *generator) sample(pattern string, want int) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	want = min(want, maxSampleLen)
	var b strings.Builder
	g.sampleNode(&b, re, want)
	return b.String(), true
}

// sampleNode writes a match of re, of about want characters (-1: any).
func (g *generator) sampleNode(b *strings.Builder, re *syntax.Regexp, want int) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		b.WriteRune(g.classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(lowerAlnum[g.rng.IntN(len(lowerAlnum))])
	case syntax.OpCapture:
		g.sampleNode(b, re.Sub[0], want)
	case syntax.OpConcat:
		g.sampleConcat(b, re.Sub, want)
	case syntax.OpAlternate:
		g.sampleNode(b, pickAlternative(re.Sub, want), want)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		g.sampleRepeat(b, re, want)
	}
	// Anchors, word boundaries and empty matches add nothing.
}

// sampleConcat shares want out among the parts: each gets its least
// length, and what remains goes to the parts that can grow, in order.
func (g *generator) sampleConcat(b *strings.Builder, subs []*syntax.Regexp, want int) {
	if want < 0 {
		for _, sub := range subs {
			g.sampleNode(b, sub, -1)
		}
		return
	}
	extra := want
	for _, sub := range subs {
		extra -= minLen(sub)
	}
	for _, sub := range subs {
		lo, hi := minLen(sub), maxLen(sub)
		give := min(max(extra, 0), hi-lo)
		extra -= give
		g.sampleNode(b, sub, lo+give)
	}
}

// pickAlternative chooses the first alternative (usually the plain form:
// aws before aws-cn; drawing among them would make ARNs look odd) that
// can be want long.
func pickAlternative(subs []*syntax.Regexp, want int) *syntax.Regexp {
	if want >= 0 {
		for _, sub := range subs {
			if minLen(sub) <= want && want <= maxLen(sub) {
				return sub
			}
		}
	}
	return subs[0]
}

// sampleRepeat draws a repetition count (to reach want when asked for,
// else at random within maxSampleRepeat) and that many matches.
func (g *generator) sampleRepeat(b *strings.Builder, re *syntax.Regexp, want int) {
	lo, hi := repeatBounds(re)
	sub := re.Sub[0]
	n := lo
	switch each := max(minLen(sub), 1); {
	case want >= 0:
		n = min(max(want/each, lo), hi)
	case hi > lo:
		n = lo + g.rng.IntN(min(hi, lo+maxSampleRepeat)-lo+1)
	}
	left := want
	for i := range n {
		part := -1
		if want >= 0 {
			// Spread what is left over the remaining elements.
			part = left / (n - i)
		}
		before := b.Len()
		g.sampleNode(b, sub, part)
		left -= b.Len() - before
	}
}

// repeatBounds gives the repetition range of a repeat node; an open end
// is unbounded.
func repeatBounds(re *syntax.Regexp) (int, int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, unbounded
	case syntax.OpPlus:
		return 1, unbounded
	case syntax.OpQuest:
		return 0, 1
	}
	if re.Max < 0 {
		return re.Min, unbounded
	}
	return re.Min, re.Max
}

// minLen is the least number of characters re matches.
func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture:
		return minLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLen(sub)
		}
		return n
	case syntax.OpAlternate:
		n := unbounded
		for _, sub := range re.Sub {
			n = min(n, minLen(sub))
		}
		return n
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, _ := repeatBounds(re)
		return lo * minLen(re.Sub[0])
	}
	return 0
}

// maxLen is the most characters re matches, unbounded when it has no
// limit.
func maxLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture:
		return maxLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n = min(n+maxLen(sub), unbounded)
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, sub := range re.Sub {
			n = max(n, maxLen(sub))
		}
		return n
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		_, hi := repeatBounds(re)
		each := maxLen(re.Sub[0])
		if hi == unbounded || each == unbounded {
			if each == 0 {
				return 0
			}
			return unbounded
		}
		return min(hi*each, unbounded)
	}
	return 0
}

// classRune draws a rune from a character class (pairs of lo, hi):
// hexadecimal digits when the class holds them all (AWS ids are hex, and
// a schema that takes one often says so where its owner's says [0-9a-z]),
// else letters and digits, then other printable ASCII, so that a negated
// class like [^/] does not yield a control character.
func (g *generator) classRune(ranges []rune) rune {
	if allIn(hexDigits, ranges) {
		return rune(hexDigits[g.rng.IntN(len(hexDigits))])
	}
	for _, pool := range []string{lowerAlnum + "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "-_.:/=+@ !#$%&*,;?~"} {
		var fit []rune
		for _, r := range pool {
			if inClass(r, ranges) {
				fit = append(fit, r)
			}
		}
		if len(fit) > 0 {
			return fit[g.rng.IntN(len(fit))]
		}
	}
	if len(ranges) >= 2 && utf8.ValidRune(ranges[0]) {
		return ranges[0]
	}
	return 'a'
}

// allIn reports whether every rune of s is in the class.
func allIn(s string, ranges []rune) bool {
	for _, r := range s {
		if !inClass(r, ranges) {
			return false
		}
	}
	return true
}

func inClass(r rune, ranges []rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if r >= ranges[i] && r <= ranges[i+1] {
			return true
		}
	}
	return false
}
