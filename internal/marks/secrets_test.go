package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestSecrets(t *testing.T) {
	str := cty.StringVal
	secret := func(s string) cty.Value { return str(s).Mark(Sensitive) }
	tests := map[string]struct {
		reason  string
		v       cty.Value
		text    string
		reveals bool
	}{
		"equal": {
			reason: "a copy of a sensitive string",
			v:      cty.ObjectVal(map[string]cty.Value{"name": secret("app-hunter2")}), text: "app-hunter2", reveals: true,
		},
		"contained": {
			reason: "an ARN around a sensitive name",
			v:      cty.ObjectVal(map[string]cty.Value{"name": secret("app-hunter2")}), text: "arn:aws:logs:log-group:app-hunter2:*", reveals: true,
		},
		"short contained": {
			reason: "a short secret is matched only whole",
			v:      cty.ObjectVal(map[string]cty.Value{"pin": secret("1234")}), text: "id-1234", reveals: false,
		},
		"short equal": {
			v: cty.ObjectVal(map[string]cty.Value{"pin": secret("1234")}), text: "1234", reveals: true,
		},
		"inside a sensitive object": {
			reason: "every string under a sensitive part is a secret",
			v:      cty.ObjectVal(map[string]cty.Value{"tags": cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"key": str("pw"), "value": str("hunter2")})}).Mark(Sensitive)}),
			text:   "hunter2", reveals: true,
		},
		"unmarked": {
			reason: "strings outside sensitive parts are not secrets",
			v:      cty.ObjectVal(map[string]cty.Value{"name": str("app-hunter2"), "pw": secret("other-secret")}), text: "app-hunter2", reveals: false,
		},
		"empty secret": {
			reason: "an empty sensitive string reveals nothing",
			v:      cty.ObjectVal(map[string]cty.Value{"pw": secret("")}), text: "anything", reveals: false,
		},
		"unknown": {
			v: cty.ObjectVal(map[string]cty.Value{"pw": cty.UnknownVal(cty.String).Mark(Sensitive)}), text: "anything", reveals: false,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := SecretsOf(tc.v).Reveals(tc.text); got != tc.reveals {
				t.Errorf("%s: Reveals(%q) = %v, want %v", tc.reason, tc.text, got, tc.reveals)
			}
			u, pvm := tc.v.UnmarkDeepWithPaths()
			if got := SecretsAt(u, pvm, nil).Reveals(tc.text); got != tc.reveals {
				t.Errorf("%s: SecretsAt(...).Reveals(%q) = %v, want %v", tc.reason, tc.text, got, tc.reveals)
			}
		})
	}
}

func TestHideCopies(t *testing.T) {
	str := cty.StringVal
	secret := str("app-hunter2").Mark(Sensitive)
	obj := func(id, arn cty.Value, tags cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": secret, "id": id, "arn": arn, "tags": tags})
	}
	tag := func(k, v string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"key": str(k), "value": str(v)})
	}
	tests := map[string]struct {
		reason string
		v      cty.Value
		want   cty.Value
	}{
		"copies": {
			reason: "the id equal to the secret and the ARN holding it are hidden; other strings are not",
			v:      obj(str("app-hunter2"), str("arn:x:app-hunter2"), cty.ListVal([]cty.Value{tag("team", "core")})),
			want:   obj(secret, str("arn:x:app-hunter2").Mark(Sensitive), cty.ListVal([]cty.Value{tag("team", "core")})),
		},
		"in a set": {
			reason: "a copy inside a set hides the set",
			v:      obj(str("i"), str("a"), cty.SetVal([]cty.Value{tag("pw", "app-hunter2"), tag("team", "core")})),
			want:   obj(str("i"), str("a"), cty.SetVal([]cty.Value{tag("pw", "app-hunter2"), tag("team", "core")}).Mark(Sensitive)),
		},
		"nothing sensitive": {
			v:    cty.ObjectVal(map[string]cty.Value{"id": str("app-hunter2")}),
			want: cty.ObjectVal(map[string]cty.Value{"id": str("app-hunter2")}),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := HideCopies(tc.v, SecretsOf(tc.v)); !got.RawEquals(tc.want) {
				t.Errorf("%s\ngot  %#v\nwant %#v", tc.reason, got, tc.want)
			}
		})
	}
}

func TestReachable(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"l": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})}),
		"s": cty.SetVal([]cty.Value{cty.StringVal("x")}),
	})
	tests := map[string]struct {
		path, want cty.Path
	}{
		"into a list":  {path: cty.GetAttrPath("l").IndexInt(0).GetAttr("a"), want: cty.GetAttrPath("l").IndexInt(0).GetAttr("a")},
		"past the end": {path: cty.GetAttrPath("l").IndexInt(3).GetAttr("a"), want: cty.GetAttrPath("l")},
		"into a set":   {path: cty.GetAttrPath("s").Index(cty.StringVal("x")), want: cty.GetAttrPath("s")},
		"missing":      {path: cty.GetAttrPath("nope"), want: cty.Path{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Reachable(v, tc.path); !got.Equals(tc.want) {
				t.Errorf("Reachable(%#v) = %#v, want %#v", tc.path, got, tc.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("dup-hunter2-x").Mark(Sensitive),
		"pass": cty.StringVal("hunter2-x").Mark(Sensitive),
		"pin":  cty.StringVal("1234").Mark(Sensitive),
	})
	s := SecretsOf(v)
	tests := map[string]struct{ text, want string }{
		"contained":     {"identifier 'dup-hunter2-x' already exists", "identifier '(sensitive value)' already exists"},
		"longest first": {"dup-hunter2-x and hunter2-x", "(sensitive value) and (sensitive value)"},
		"short whole":   {"1234", "(sensitive value)"},
		"short inside":  {"pin 1234 refused", "pin 1234 refused"},
		"nothing":       {"all fine", "all fine"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := s.Redact(tc.text); got != tc.want {
				t.Errorf("Redact(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
	if got := (Secrets{}).Redact("x"); got != "x" {
		t.Errorf("no secrets: Redact = %q", got)
	}
}
