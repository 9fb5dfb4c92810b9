package cfnschema

import (
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/dlclark/regexp2"
)

// patternMatchTimeout bounds one ECMA-262 match. Backtracking engines can
// take exponential time on hostile input; a validator must not hang a plan.
const patternMatchTimeout = time.Second

// Pattern is a compiled JSON Schema regular expression (ECMA-262 syntax, as
// CloudFormation schemas are written). Patterns Go's RE2 engine accepts run
// on RE2, which is linear-time and what stringvalidator.RegexMatches needs;
// the rest (lookaround, \uXXXX escapes, repeat counts over 1000, \Z) run on
// an ECMA-262 backtracking engine instead of being dropped as awscc drops
// them. A Pattern is safe for concurrent use.
type Pattern struct {
	Source string
	re2    *regexp.Regexp
	ecma   *regexp2.Regexp
}

// Engine names the engine that evaluates the pattern: "RE2" or "ECMA-262".
func (p *Pattern) Engine() string {
	if p.re2 != nil {
		return "RE2"
	}
	return "ECMA-262"
}

// MatchString reports whether s contains a match, the unanchored search that
// JSON Schema's "pattern" keyword means. The error is non-nil only when an
// ECMA-262 match ran out of time.
func (p *Pattern) MatchString(s string) (bool, error) {
	if p.re2 != nil {
		return p.re2.MatchString(s), nil
	}
	return p.ecma.MatchString(s)
}

// patternCache compiles each distinct pattern once per load: the same ARN
// and name patterns recur across hundreds of AWS types.
type patternCache struct {
	mu      sync.Mutex
	entries map[string]patternEntry
}

type patternEntry struct {
	p   *Pattern
	err error
}

func newPatternCache() *patternCache {
	return &patternCache{entries: make(map[string]patternEntry)}
}

// compile returns the compiled pattern, or an error naming both engines'
// complaints when neither accepts it.
func (c *patternCache) compile(src string) (*Pattern, error) {
	c.mu.Lock()
	e, ok := c.entries[src]
	c.mu.Unlock()
	if ok {
		return e.p, e.err
	}
	p, err := compilePattern(src)
	c.mu.Lock()
	c.entries[src] = patternEntry{p, err}
	c.mu.Unlock()
	return p, err
}

func compilePattern(src string) (*Pattern, error) {
	re, reErr := regexp.Compile(src)
	if reErr == nil {
		return &Pattern{Source: src, re2: re}, nil
	}
	ecma, ecmaErr := regexp2.Compile(src, regexp2.ECMAScript)
	if ecmaErr != nil {
		return nil, fmt.Errorf("RE2: %v; ECMA-262: %v", reErr, ecmaErr)
	}
	ecma.MatchTimeout = patternMatchTimeout
	return &Pattern{Source: src, ecma: ecma}, nil
}
