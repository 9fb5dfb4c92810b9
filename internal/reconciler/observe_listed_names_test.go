package reconciler

import (
	"strings"
	"testing"
)

// TestDNSName: object names are DNS labels made from display names (else
// external names), unique, at most 63 characters even with a suffix.
func TestDNSName(t *testing.T) {
	long := strings.Repeat("a", 70)
	taken := map[string]bool{}
	for _, tc := range []struct{ display, ext, want string }{
		{"/aws/lambda/Fn", "x", "aws-lambda-fn"},
		{"AWS Lambda FN", "y", "aws-lambda-fn-2"},
		{"", "arn:aws:iam::1:role/R", "arn-aws-iam-1-role-r"},
		{"***", "", "listed"},
		{long, "", strings.Repeat("a", 63)},
		{long, "", strings.Repeat("a", 61) + "-2"},
	} {
		if got := dnsName(taken, tc.display, tc.ext); got != tc.want {
			t.Errorf("dnsName(%q, %q) = %q, want %q", tc.display, tc.ext, got, tc.want)
		}
	}
}
