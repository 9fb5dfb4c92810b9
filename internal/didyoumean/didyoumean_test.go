package didyoumean

import "testing"

func TestNameSuggestion(t *testing.T) {
	cases := map[string]struct {
		reason     string
		given      string
		candidates []string
		want       string
	}{
		"one typo":        {given: "inptu", candidates: []string{"id", "input", "output"}, want: "input"},
		"two edits":       {given: "terraform_dta", candidates: []string{"terraform_data"}, want: "terraform_data"},
		"three edits":     {reason: "the threshold is below three edits", given: "nope", candidates: []string{"id", "input", "output"}, want: ""},
		"first in order":  {reason: "the first close enough candidate, not the closest", given: "abc", candidates: []string{"axx", "abd"}, want: "axx"},
		"no candidates":   {given: "x", want: ""},
		"exact match too": {given: "id", candidates: []string{"id"}, want: "id"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := NameSuggestion(tc.given, tc.candidates); got != tc.want {
				t.Errorf("%s: NameSuggestion(%q, %q) = %q, want %q", tc.reason, tc.given, tc.candidates, got, tc.want)
			}
		})
	}
}
