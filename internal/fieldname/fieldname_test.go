package fieldname

import "testing"

func TestCamel(t *testing.T) {
	cases := map[string]struct {
		reason string
		attr   string
		want   string
	}{
		"one word":          {"unchanged", "arn", "arn"},
		"words":             {"underscores join capitalised words", "log_group_name", "logGroupName"},
		"acronym":           {"acronyms are lowercase words, as in upjet's fields", "kms_key_id", "kmsKeyId"},
		"digit word":        {"an underscore before a digit stays, so ipv6_1 and ipv61 differ", "ipv6_1", "ipv6_1"},
		"digits in a word":  {"digits inside words are kept", "ipv6_cidr_block", "ipv6CidrBlock"},
		"leading":           {"a leading underscore has no word before it", "_hidden", "_hidden"},
		"trailing":          {"a trailing underscore stays", "name_", "name_"},
		"double underscore": {"the second underscore capitalises; the first stays", "a__b", "a_B"},
		"empty":             {"empty stays empty", "", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Camel(tc.attr); got != tc.want {
				t.Errorf("%s: Camel(%q) = %q, want %q", tc.reason, tc.attr, got, tc.want)
			}
			if got := Snake(tc.want); got != tc.attr {
				t.Errorf("%s: Snake(%q) = %q, want %q", tc.reason, tc.want, got, tc.attr)
			}
		})
	}
}

// TestCamelInjective checks that distinct attribute names of lowercase
// letters, digits and underscores never share a field, and that Snake
// gives each name back from its field.
func TestCamelInjective(t *testing.T) {
	alphabet := []byte("ab1_")
	seen := map[string]string{}
	var walk func(prefix []byte)
	walk = func(prefix []byte) {
		if len(prefix) > 0 {
			name := string(prefix)
			f := Camel(name)
			if other, dup := seen[f]; dup {
				t.Fatalf("Camel(%q) = Camel(%q) = %q", name, other, f)
			}
			seen[f] = name
			if back := Snake(f); back != name {
				t.Fatalf("Snake(Camel(%q)) = Snake(%q) = %q", name, f, back)
			}
		}
		if len(prefix) == 6 {
			return
		}
		for _, c := range alphabet {
			walk(append(prefix, c))
		}
	}
	walk(nil)
}
