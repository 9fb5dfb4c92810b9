package emulator

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// maxSampleRepeat bounds the repetitions a sample draws for *, + and
// open-ended {n,}: enough to look real, short enough to meet most
// maxLength bounds.
const maxSampleRepeat = 6

// sample draws a string that the regular expression pattern matches,
// for invented values whose schema gives only a pattern (ids, ARNs, S3
// URIs). It reports false when the pattern does not parse as RE2 syntax
// (lookarounds, back references): ECMAScript has a little RE2 lacks.
func (g *generator) sample(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	g.sampleNode(&b, re.Simplify())
	return b.String(), true
}

func (g *generator) sampleNode(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		b.WriteRune(g.classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(lowerAlnum[g.rng.IntN(len(lowerAlnum))])
	case syntax.OpCapture:
		g.sampleNode(b, re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			g.sampleNode(b, sub)
		}
	case syntax.OpAlternate:
		// The first alternative is usually the plain form (aws before
		// aws-cn); drawing among them would make ARNs look odd.
		g.sampleNode(b, re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := repeatBounds(re)
		n := lo
		if hi > lo {
			n += g.rng.IntN(hi - lo + 1)
		}
		for range n {
			g.sampleNode(b, re.Sub[0])
		}
	}
	// Anchors, word boundaries and empty matches add nothing.
}

// repeatBounds gives the repetition range of a repeat node, open ends
// capped at maxSampleRepeat above the minimum.
func repeatBounds(re *syntax.Regexp) (int, int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, maxSampleRepeat
	case syntax.OpPlus:
		return 1, maxSampleRepeat
	case syntax.OpQuest:
		return 0, 1
	}
	hi := re.Max
	if hi < 0 || hi > re.Min+maxSampleRepeat {
		hi = re.Min + maxSampleRepeat
	}
	return re.Min, hi
}

// classRune draws a rune from a character class (pairs of lo, hi),
// preferring letters and digits, then other printable ASCII, so that a
// negated class like [^/] does not yield a control character.
func (g *generator) classRune(ranges []rune) rune {
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

func inClass(r rune, ranges []rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if r >= ranges[i] && r <= ranges[i+1] {
			return true
		}
	}
	return false
}
