package emulator

import (
	"strings"
	"testing"
	"time"
)

// TestPatternTimeoutAccepts checks that a match cut short by its timeout
// does not refuse the value: only a decided mismatch does.
func TestPatternTimeoutAccepts(t *testing.T) {
	tests := map[string]struct {
		pattern, value string
		timeout        time.Duration
		want           bool
	}{
		"match":      {pattern: `^[a-z]+\.[a-z]+$`, value: "index.handler", timeout: patternTimeout, want: true},
		"mismatch":   {pattern: `^[a-z]+\.[a-z]+$`, value: "index", timeout: patternTimeout, want: false},
		"timed out":  {pattern: `^(a+)+$`, value: strings.Repeat("a", 40) + "b", timeout: time.Millisecond, want: true},
		"backtracks": {pattern: `^(a+)+$`, value: "aab", timeout: patternTimeout, want: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			re, err := compilePattern(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			e, ok := re.(ecmaRegexp)
			if !ok {
				t.Fatalf("compiled as %T, want the ECMAScript engine", re)
			}
			e.re.MatchTimeout = tc.timeout
			if got := e.MatchString(tc.value); got != tc.want {
				t.Errorf("MatchString(%q) = %v, want %v", tc.value, got, tc.want)
			}
		})
	}
}
