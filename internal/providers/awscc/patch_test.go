package awscc

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wI2L/jsondiff"
)

// TestLookupPointer: patch paths are read with cloudcontrol's RFC 6901
// grammar, so a key holding "/" or "~" is found under its escaped token,
// and an index is only a plain decimal.
func TestLookupPointer(t *testing.T) {
	doc := map[string]any{
		"a/b": map[string]any{"~x": "slash and tilde"},
		"~1":  "tilde one",
		"L":   []any{"zero", "one"},
		"":    "empty key",
	}
	cases := map[string]struct {
		reason string
		ptr    string
		want   any
		found  bool
	}{
		"Escapes":      {ptr: "/a~1b/~0x", want: "slash and tilde", found: true},
		"TildeOne":     {reason: "~01 is ~1, not /", ptr: "/~01", want: "tilde one", found: true},
		"Index":        {ptr: "/L/1", want: "one", found: true},
		"EmptyToken":   {ptr: "/", want: "empty key", found: true},
		"Whole":        {ptr: "", want: doc, found: true},
		"LeadingZero":  {reason: "RFC 6901 writes no leading zeros", ptr: "/L/01"},
		"Signed":       {ptr: "/L/+1"},
		"Trailing":     {reason: "was found as index 1 by Sscanf", ptr: "/L/1x"},
		"OutOfRange":   {ptr: "/L/2"},
		"BadEscape":    {reason: "refused by the grammar, was read as a literal", ptr: "/a~2b"},
		"Missing":      {ptr: "/nope"},
		"ThroughValue": {ptr: "/~1/x"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, found := lookupPointer(doc, tc.ptr)
			if found != tc.found {
				t.Fatalf("%s\nlookupPointer(%q) found = %v, want %v", tc.reason, tc.ptr, found, tc.found)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestWholeArraysEscapedKey: an unordered array under a map key holding
// "/" is replaced whole at the escaped pointer.
func TestWholeArraysEscapedKey(t *testing.T) {
	from := map[string]any{"M": map[string]any{"a/b": []any{"x", "y"}}}
	to := map[string]any{"M": map[string]any{"a/b": []any{"y", "z"}}}
	ops := jsondiff.Patch{
		{Type: jsondiff.OperationReplace, Path: "/M/a~1b/0", Value: "y"},
		{Type: jsondiff.OperationReplace, Path: "/M/a~1b/1", Value: "z"},
	}
	got := wholeArrays(ops, from, to, map[string]bool{"/M/a~1b": true})
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`[{"value":["y","z"],"op":"replace","path":"/M/a~1b"}]`, string(b)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
