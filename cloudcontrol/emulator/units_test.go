package emulator

import (
	"context"
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
				got, ok := g.sample(tc.pattern, -1)
				if !ok || !re.MatchString(got) {
					t.Fatalf("sample = %q, %v: does not match %s (%s)", got, ok, tc.pattern, tc.reason)
				}
			}
		})
	}
	g := newGenerator(&typeSchema{typeName: "AWS::X::Y"}, "seed", testRegion, testAccount, time.Time{}, nil)
	if _, ok := g.sample(`^(?!aws:)[a-z]+$`, -1); ok {
		t.Error("a lookahead sampled; want false so the caller keeps its value")
	}
}

// TestSampleLength: asked for a length, a sample reaches it where the
// pattern allows, through open repeats, groups and alternatives (ids of
// exactly 22 or 26 characters, ARNs of at least 50).
func TestSampleLength(t *testing.T) {
	tests := map[string]struct {
		pattern string
		want    int
	}{
		"star":        {`^([a-z0-9A-Z]*)$`, 22},
		"plus":        {`^[A-Z0-9]+$`, 26},
		"groups":      {`^arn:(aws|aws-cn|aws-us-gov):backup-gateway(:[a-zA-Z-0-9]+){3}\/[a-zA-Z-0-9]+$`, 50},
		"alternative": {`^((dv-[0-9a-z]{17})|(arn:[a-z0-9\-]+:vpc-lattice:[a-zA-Z0-9\-]+:\d{12}:domainverification/dv-[0-9a-z]{17}))$`, 20},
		"bounded":     {`^[a-f0-9]{8}$`, 8},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := newGenerator(&typeSchema{typeName: "AWS::X::Y"}, "seed", testRegion, testAccount, time.Time{}, nil)
			re := regexp.MustCompile(tc.pattern)
			for range 20 {
				got, ok := g.sample(tc.pattern, tc.want)
				if !ok || !re.MatchString(got) || len(got) != tc.want {
					t.Fatalf("sample(%d) = %q (%d long), %v; want a match of %s %d long", tc.want, got, len(got), ok, tc.pattern, tc.want)
				}
			}
		})
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
		"object for string kept": {typ: "string", in: map[string]any{}, want: map[string]any{}},
		"NaN for number kept":    {typ: "number", in: "NaN", want: "NaN"},
		"hex for integer kept":   {typ: "integer", in: "0x10", want: "0x10"},
		"number for bool kept":   {typ: "boolean", in: json.Number("1"), want: json.Number("1")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, coerce(tc.typ, tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGenericShapes(t *testing.T) {
	const schema = `{
		"typeName": "AWS::Widgets::WidgetPool",
		"additionalProperties": false,
		"properties": {
			"Name": {"type": "string"},
			"Arn": {"type": "string"},
			"OwnerRoleArn": {"type": "string"},
			"WidgetPoolId": {"type": "string"},
			"ShortId": {"type": "string", "pattern": "^wp-[a-z0-9]{6}$"},
			"CreatedAt": {"type": "string", "format": "date-time"},
			"Phase": {"type": "string", "enum": ["CREATING", "READY"]},
			"Size": {"type": "integer"},
			"Floor": {"type": "integer", "minimum": 3},
			"ConsoleUrl": {"type": "string"},
			"Endpoint": {"type": "string"},
			"Members": {"type": "array", "items": {"type": "string"}}
		},
		"primaryIdentifier": ["/properties/Name"],
		"readOnlyProperties": ["/properties/Arn", "/properties/OwnerRoleArn", "/properties/WidgetPoolId",
			"/properties/ShortId", "/properties/CreatedAt", "/properties/Phase", "/properties/Size",
			"/properties/Floor", "/properties/ConsoleUrl", "/properties/Endpoint", "/properties/Members"]
	}`
	tests := map[string]struct {
		reason string
		want   any
	}{
		"Arn":          {reason: "the resource's own ARN, kebab-case kind", want: `^arn:aws:widgets:us-east-2:123456789012:widget-pool/pool$`},
		"OwnerRoleArn": {reason: "another ARN names its kind", want: `^arn:aws:widgets:us-east-2:123456789012:owner-role/pool$`},
		"WidgetPoolId": {reason: "ids are UUIDs", want: `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`},
		"ShortId":      {reason: "a pattern shapes the id", want: `^wp-[a-z0-9]{6}$`},
		"CreatedAt":    {reason: "date-times are now", want: `^2026-11-24T10:30:00Z$`},
		"Phase":        {reason: "enums take their first value", want: `^CREATING$`},
		"ConsoleUrl":   {reason: "URLs are https", want: `^https://pool\.widgets\.us-east-2\.amazonaws\.com/$`},
		"Endpoint":     {reason: "endpoints are host names", want: `^pool\.widgets\.us-east-2\.amazonaws\.com$`},
		"Size":         {reason: "numbers are 0", want: json.Number("0")},
		"Floor":        {reason: "or their minimum", want: json.Number("3")},
		"Members":      {reason: "arrays are empty", want: []any{}},
	}
	store := newMemStore()
	h, err := New("AWS::Widgets::WidgetPool", []byte(schema), store, WithClock(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	ev := h.Create(context.Background(), request("AWS::Widgets::WidgetPool", "t", map[string]any{"Name": "pool"}))
	mustSucceed(t, "create", ev)
	for prop, tc := range tests {
		t.Run(prop, func(t *testing.T) {
			got := ev.Model[prop]
			if pattern, ok := tc.want.(string); ok {
				if s, _ := got.(string); !regexp.MustCompile(pattern).MatchString(s) {
					t.Errorf("%s = %#v, want match of %s (%s)", prop, got, pattern, tc.reason)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s (%s)", prop, diff, tc.reason)
			}
		})
	}
}

// TestIdentifierOf: parts are cloudcontrol.ScalarText's text, as the
// endpoint's; a part that is null, empty, an object or an array is
// refused (an object's or array's JSON text was an identifier before).
func TestIdentifierOf(t *testing.T) {
	s, err := parseSchema("T::T::T", []byte(`{"typeName":"T::T::T",
		"properties":{"A":{},"B":{}},
		"primaryIdentifier":["/properties/A","/properties/B"]}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		model   map[string]any
		want    string
		wantErr bool
	}{
		"strings":     {model: map[string]any{"A": "a", "B": "b"}, want: "a|b"},
		"scalars":     {model: map[string]any{"A": json.Number("5"), "B": false}, want: "5|false"},
		"missing":     {model: map[string]any{"A": "a"}, wantErr: true},
		"null":        {model: map[string]any{"A": "a", "B": nil}, wantErr: true},
		"empty":       {model: map[string]any{"A": "", "B": "b"}, wantErr: true},
		"object part": {model: map[string]any{"A": "a", "B": map[string]any{"x": "y"}}, wantErr: true},
		"array part":  {model: map[string]any{"A": []any{"x"}, "B": "b"}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := s.identifierOf(tc.model)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("identifierOf = %q, %v; want %q (error %v)", got, err, tc.want, tc.wantErr)
			}
		})
	}
}
