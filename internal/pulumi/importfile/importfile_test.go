package importfile

import "testing"

// TestUniqueName: resource names keep letters, digits, "-" and "_",
// squeeze the rest to one "-", fall back to the ID, and never repeat.
func TestUniqueName(t *testing.T) {
	taken := map[string]int{}
	for _, tc := range []struct{ display, id, want string }{
		{"/aws/lambda/fn", "x", "aws-lambda-fn"},
		{"aws lambda fn", "y", "aws-lambda-fn-2"},
		{"aws-lambda-fn-2", "z", "aws-lambda-fn-2-2"},
		{"", "arn:aws:iam::1:role/r", "arn-aws-iam-1-role-r"},
		{"", "", "resource"},
		{"My_Bucket.v2", "b", "My_Bucket-v2"},
		{"***", "***", "resource-2"},
	} {
		if got := uniqueName(taken, tc.display, tc.id); got != tc.want {
			t.Errorf("uniqueName(%q, %q) = %q, want %q", tc.display, tc.id, got, tc.want)
		}
	}
}
