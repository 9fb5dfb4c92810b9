package emulator

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSample(t *testing.T) {
	tests := map[string]struct {
		reason  string
		pattern string
	}{
		"role arn":   {reason: "ARN patterns from IAM-using types", pattern: `^arn:aws[a-z\-]*:iam::\d{12}:role/?[a-zA-Z_0-9+=,.@\-_/]+$`},
		"uuid":       {reason: "bounded repeats in a group", pattern: `^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$`},
		"s3 uri":     {reason: "alternation and negated classes", pattern: `^(https|s3)://([^/]+)/?(.*)$`},
		"unanchored": {reason: "a pattern without anchors", pattern: `[a-z]+`},
		"case fold":  {reason: "flags", pattern: `(?i)^sg-[0-9a-f]{8,17}$`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := newGenerator(&typeSchema{typeName: "AWS::X::Y"}, "seed", testRegion, testAccount, time.Time{}, nil)
			re := regexp.MustCompile(tc.pattern)
			for range 20 {
				got, ok := g.sample(tc.pattern)
				if !ok || !re.MatchString(got) {
					t.Fatalf("sample = %q, %v: does not match %s (%s)", got, ok, tc.pattern, tc.reason)
				}
			}
		})
	}
	g := newGenerator(&typeSchema{typeName: "AWS::X::Y"}, "seed", testRegion, testAccount, time.Time{}, nil)
	if _, ok := g.sample(`^(?!aws:)[a-z]+$`); ok {
		t.Error("a lookahead sampled; want false so the caller keeps its value")
	}
}

func TestKebab(t *testing.T) {
	tests := map[string]string{
		"LogGroup": "log-group", "VPC": "vpc", "RegexPatternSet": "regex-pattern-set",
		"DBInstance": "db-instance", "VPCEndpoint": "vpc-endpoint",
	}
	for in, want := range tests {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCoerce(t *testing.T) {
	tests := map[string]struct {
		typ  string
		in   any
		want any
	}{
		"string true to boolean": {typ: "boolean", in: "true", want: true},
		"string to integer":      {typ: "integer", in: "5", want: json.Number("5")},
		"number to string":       {typ: "string", in: json.Number("5"), want: "5"},
		"bool to string":         {typ: "string", in: false, want: "false"},
		"unconvertible kept":     {typ: "boolean", in: "yes please", want: "yes please"},
		"right type kept":        {typ: "string", in: "s", want: "s"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, coerce(tc.typ, tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
