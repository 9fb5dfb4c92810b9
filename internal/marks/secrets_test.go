package marks

import (
	"fmt"
	"sync"
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

// TestRevealsMany holds Reveals and Redact to the same answers past
// linearMax, where they look secrets up by prefix instead of in turn.
func TestRevealsMany(t *testing.T) {
	for _, n := range []int{1, linearMax, linearMax + 1, 1000} {
		var s Secrets
		for i := 0; i < n; i++ {
			s.add(fmt.Sprintf("secret-%04d", i))
		}
		s.add("pin1")
		s.add("secret-0000-longer")
		last := fmt.Sprintf("secret-%04d", n-1)
		tests := map[string]struct {
			text    string
			reveals bool
			redact  string
		}{
			"whole":           {text: last, reveals: true, redact: Redacted},
			"inside":          {text: "arn:" + last + ":*", reveals: true, redact: "arn:" + Redacted + ":*"},
			"longest first":   {text: "x-secret-0000-longer", reveals: true, redact: "x-" + Redacted},
			"two":             {text: last + "/secret-0000", reveals: true, redact: Redacted + "/" + Redacted},
			"short whole":     {text: "pin1", reveals: true, redact: Redacted},
			"short inside":    {text: "pin1-x", reveals: false, redact: "pin1-x"},
			"a prefix only":   {text: "secret-", reveals: false, redact: "secret-"},
			"none":            {text: "all fine here", reveals: false, redact: "all fine here"},
			"at the very end": {text: "..." + last, reveals: true, redact: "..." + Redacted},
		}
		for name, tc := range tests {
			t.Run(fmt.Sprintf("%d/%s", n, name), func(t *testing.T) {
				if got := s.Reveals(tc.text); got != tc.reveals {
					t.Errorf("Reveals(%q) = %v, want %v", tc.text, got, tc.reveals)
				}
				if got := s.Redact(tc.text); got != tc.redact {
					t.Errorf("Redact(%q) = %q, want %q", tc.text, got, tc.redact)
				}
			})
		}
	}
}

func TestUnion(t *testing.T) {
	a := SecretsOf(cty.StringVal("first-secret").Mark(Sensitive))
	b := SecretsOf(cty.StringVal("second-secret").Mark(Sensitive))
	u := a.Union(b)
	for _, text := range []string{"first-secret", "x-second-secret"} {
		if !u.Reveals(text) {
			t.Errorf("the union does not reveal %q", text)
		}
	}
	if a.Reveals("second-secret") || b.Reveals("first-secret") {
		t.Errorf("Union changed its operands")
	}
	if got := u.Len(); got != 2 {
		t.Errorf("Len = %d, want 2", got)
	}
}

// TestKnown adds from many goroutines while others read (run it with
// -race): a snapshot keeps what it held, the set learns every secret.
func TestKnown(t *testing.T) {
	var nilKnown *Known
	nilKnown.Add(cty.StringVal("x").Mark(Sensitive))
	if nilKnown.Reveals("x") || nilKnown.Redact("x") != "x" || !nilKnown.Secrets().Empty() {
		t.Errorf("a nil Known holds something")
	}
	k := NewKnown()
	k.Add(cty.ObjectVal(map[string]cty.Value{"plain": cty.StringVal("visible-text")}))
	snap := k.Secrets()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			k.Add(cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal(fmt.Sprintf("password-%d", i)).Mark(Sensitive)}))
		}()
		go func() {
			defer wg.Done()
			_ = k.Reveals("id-password-3")
			_ = k.Redact("id-password-3")
			_ = k.Secrets().Reveals("x")
		}()
	}
	wg.Wait()
	if k.Reveals("visible-text") {
		t.Errorf("an unmarked string became a secret")
	}
	for i := 0; i < 8; i++ {
		if text := fmt.Sprintf("log-group/password-%d", i); !k.Reveals(text) {
			t.Errorf("Reveals(%q) = false after the secret was added", text)
		}
	}
	if !snap.Empty() {
		t.Errorf("a snapshot taken before the additions holds %d secrets", snap.Len())
	}
	if got, want := k.Redact("a password-5 b"), "a "+Redacted+" b"; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
}

// BenchmarkReveals checks a 40-byte string against a run's secrets: the
// cost per string stays flat as their number grows.
func BenchmarkReveals(b *testing.B) {
	for _, n := range []int{1, 8, 100, 10000} {
		var s Secrets
		for i := 0; i < n; i++ {
			s.add(fmt.Sprintf("generated-password-%06d", i))
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if s.Reveals("arn:aws:logs:us-east-1:123456789012:log") {
					b.Fatal("revealed")
				}
			}
		})
	}
}
