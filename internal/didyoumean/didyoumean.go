package didyoumean

import "github.com/agext/levenshtein"

// maxDistance is the edit distance below which a candidate is suggested,
// Terraform's threshold.
const maxDistance = 3

// NameSuggestion returns the first of candidates within two edits of
// given, or "" if none is. Terraform suggests the first close enough name
// in the order it was given (callers sort names), not the closest one, and
// so does this.
func NameSuggestion(given string, candidates []string) string {
	for _, c := range candidates {
		if levenshtein.Distance(given, c, nil) < maxDistance {
			return c
		}
	}
	return ""
}
