package cloudcontrol_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// TestScalarText holds the one scalar coercion. The rows marked "was" are
// where the three copies it replaced disagreed: cfnschema refused what the
// endpoint and the emulator wrote as JSON text, and the emulator read null
// as "" where the endpoint wrote "null".
func TestScalarText(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     any
		want   string
		wantOK bool
	}{
		"String":      {in: "abc", want: "abc", wantOK: true},
		"EmptyString": {in: "", want: "", wantOK: true},
		"Number":      {in: json.Number("5"), want: "5", wantOK: true},
		"Fraction":    {in: json.Number("-1.50"), want: "-1.50", wantOK: true, reason: "a number keeps the text it was written with"},
		"True":        {in: true, want: "true", wantOK: true},
		"False":       {in: false, want: "false", wantOK: true},
		"Float64": {
			reason: "was: cfnschema refused it; the endpoint and the emulator wrote its JSON text",
			in:     1.5, want: "1.5", wantOK: true,
		},
		"Float64Large": {in: 1e21, want: "1e+21", wantOK: true, reason: "as JSON writes it"},
		"NaN":          {in: math.NaN(), wantOK: false, reason: "JSON has no text for it"},
		"Null": {
			reason: "was: the emulator read it as \"\", the endpoint as \"null\"",
			in:     nil, wantOK: false,
		},
		"Object": {
			reason: "was: the endpoint and the emulator wrote an identifier of an object's JSON",
			in:     map[string]any{"a": "b"}, wantOK: false,
		},
		"Array": {
			reason: "was: as an object",
			in:     []any{"a"}, wantOK: false,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := cloudcontrol.ScalarText(tc.in)
			if diff := cmp.Diff([2]any{tc.want, tc.wantOK}, [2]any{got, ok}); diff != "" {
				t.Errorf("%s\n(text, ok) -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
