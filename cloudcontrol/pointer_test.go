package cloudcontrol_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/cairn-iac/cairn/cloudcontrol/cloudcontroltest"
)

// TestParsePointer holds the parser to the shared RFC 6901 table: tokens,
// refusals, the property form, and formatting back to the same text.
func TestParsePointer(t *testing.T) {
	for _, tc := range cloudcontroltest.PointerCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			got, err := cloudcontrol.ParsePointer(tc.Pointer)
			if !tc.Valid() {
				if err == nil {
					t.Fatalf("ParsePointer(%q) = %q, want an error", tc.Pointer, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParsePointer(%q): %v", tc.Pointer, err)
			}
			if diff := cmp.Diff(tc.Tokens, []string(got)); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
			if s := got.String(); s != tc.Pointer {
				t.Errorf("String() = %q, want %q", s, tc.Pointer)
			}
			p, err := cloudcontrol.ParsePropertyPath(tc.Pointer)
			if (err == nil) != tc.Property {
				t.Fatalf("ParsePropertyPath(%q) error = %v, want a property: %v", tc.Pointer, err, tc.Property)
			}
			if tc.Property {
				if diff := cmp.Diff(tc.Tokens[1:], []string(p)); diff != "" {
					t.Errorf("property path (-want +got):\n%s", diff)
				}
				if s := p.String(); s != tc.Pointer {
					t.Errorf("PropertyPath.String() = %q, want %q", s, tc.Pointer)
				}
			}
		})
	}
}

// FuzzParsePointer: any text either is refused or parses to tokens that
// format back to text parsing to the same tokens.
func FuzzParsePointer(f *testing.F) {
	for _, s := range []string{"", "/", "/properties/a~1b", "/a~0~1//", "/~2", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := cloudcontrol.ParsePointer(s)
		if err != nil {
			return
		}
		again, err := cloudcontrol.ParsePointer(p.String())
		if err != nil {
			t.Fatalf("%q formats as %q, which does not parse: %v", s, p.String(), err)
		}
		if diff := cmp.Diff([]string(p), []string(again)); diff != "" {
			t.Fatalf("%q: round trip changed the tokens (-first +second):\n%s", s, diff)
		}
		if p.String() != s {
			t.Fatalf("%q formats as %q", s, p.String())
		}
	})
}
