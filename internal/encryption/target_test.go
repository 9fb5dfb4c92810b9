package encryption

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const plainState = `{
  "version": 4,
  "terraform_version": "1.5.7",
  "serial": 7,
  "lineage": "0b4e6a3c-1111-2222-3333-444455556666",
  "outputs": {},
  "resources": [{"mode":"managed","type":"terraform_data","name":"a","instances":[{"attributes":{"input":"round-trip-secret"}}]}]
}
`

func TestRoundTrip(t *testing.T) {
	cases := map[string]struct {
		reason string
		kind   Kind
	}{
		"state": {reason: "a state envelope repeats serial and lineage in the clear, indented", kind: KindState},
		"plan":  {reason: "a plan envelope is compact, without serial or lineage", kind: KindPlan},
	}
	cfg := mustConfig(t, fastProvider("k", "round-trip-passphrase")+`
state { method = method.aes_gcm.k }
plan { method = method.aes_gcm.k }`)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			target := NewTarget(tc.kind, cfg.State)
			sealed, err := target.Encrypt([]byte(plainState))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(sealed, []byte("round-trip-secret")) {
				t.Errorf("%s: the envelope holds the plaintext", tc.reason)
			}
			env, err := DecodeEnvelope(sealed)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if _, ok := env.Meta["key_provider.pbkdf2.k"]; !ok || env.Version != "v0" {
				t.Errorf("%s: meta %v version %q", tc.reason, env.Meta, env.Version)
			}
			wantSerial := tc.kind == KindState
			if (env.Serial != nil) != wantSerial || (env.Serial != nil && *env.Serial != 7) {
				t.Errorf("%s: serial %v", tc.reason, env.Serial)
			}
			// A second Target (another run) derives the key from the
			// stored metadata.
			plain, err := NewTarget(tc.kind, cfg.State).Decrypt(sealed)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if diff := cmp.Diff(plainState, string(plain)); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEncryptDerivesOnce(t *testing.T) {
	cfg := mustConfig(t, fastProvider("k", "derive-once-passphrase")+`state { method = method.aes_gcm.k }`)
	target := cfg.StateTarget()
	a, err := target.Encrypt([]byte(plainState))
	if err != nil {
		t.Fatal(err)
	}
	b, err := target.Encrypt([]byte(plainState))
	if err != nil {
		t.Fatal(err)
	}
	ea, _ := DecodeEnvelope(a)
	eb, _ := DecodeEnvelope(b)
	if !bytes.Equal(ea.Meta["key_provider.pbkdf2.k"], eb.Meta["key_provider.pbkdf2.k"]) {
		t.Error("two writes of one run used different salts: the key was derived twice")
	}
	if bytes.Equal(ea.Data, eb.Data) {
		t.Error("two writes produced the same ciphertext: the nonce was reused")
	}
	if len(target.keys) != 1 {
		t.Errorf("derived %d keys, want 1", len(target.keys))
	}
	if _, err := target.Decrypt(a); err != nil || len(target.keys) != 1 {
		t.Errorf("decrypting its own output derived again (%d keys) or failed: %v", len(target.keys), err)
	}
}

// TestFallback walks the migration OpenTofu documents: unencrypted, then
// encrypted with a fallback to unencrypted, then a new key with the old
// one as fallback.
func TestFallback(t *testing.T) {
	oldCfg := mustConfig(t, fastProvider("old", "the-old-passphrase")+`state { method = method.aes_gcm.old }`)
	sealedOld, err := oldCfg.StateTarget().Encrypt([]byte(plainState))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason      string
		config      string
		input       []byte
		wantSummary string // "" for success
	}{
		"migrate from plaintext": {
			reason: "fallback to unencrypted reads a plaintext state",
			config: fastProvider("old", "the-old-passphrase") + `method "unencrypted" "migrate" {}
state {
  method = method.aes_gcm.old
  fallback { method = method.unencrypted.migrate }
}`,
			input: []byte(plainState),
		},
		"plaintext refused": {
			reason:      "without an unencrypted method, plaintext is refused",
			config:      fastProvider("old", "the-old-passphrase") + `state { method = method.aes_gcm.old }`,
			input:       []byte(plainState),
			wantSummary: "Unencrypted state",
		},
		"rotated key": {
			reason: "the old key as fallback reads what it encrypted",
			config: fastProvider("new", "the-new-passphrase") + fastProvider("old", "the-old-passphrase") + `state {
  method = method.aes_gcm.new
  fallback { method = method.aes_gcm.old }
}`,
			input: sealedOld,
		},
		"rotated without fallback": {
			reason:      "the new key alone finds no metadata for itself",
			config:      fastProvider("new", "the-new-passphrase") + `state { method = method.aes_gcm.new }`,
			input:       sealedOld,
			wantSummary: "Failed to decrypt state",
		},
		"back to plaintext": {
			reason: "unencrypted primary with the key as fallback decrypts",
			config: fastProvider("old", "the-old-passphrase") + `method "unencrypted" "off" {}
state {
  method = method.unencrypted.off
  fallback { method = method.aes_gcm.old }
}`,
			input: sealedOld,
		},
		"only unencrypted": {
			reason:      "an encrypted state with no decrypting method",
			config:      `method "unencrypted" "off" {}` + "\n" + `state { method = method.unencrypted.off }`,
			input:       sealedOld,
			wantSummary: "Encrypted state cannot be read",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			plain, err := mustConfig(t, tc.config).StateTarget().Decrypt(tc.input)
			if tc.wantSummary == "" {
				if err != nil {
					t.Fatalf("%s: %v", tc.reason, err)
				}
				if string(plain) != plainState {
					t.Errorf("%s: wrong plaintext", tc.reason)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Summary != tc.wantSummary {
				t.Fatalf("%s: got %v, want summary %q", tc.reason, err, tc.wantSummary)
			}
			if strings.Contains(e.Error(), "passphrase\"") || strings.Contains(e.Error(), "the-old-passphrase") || strings.Contains(e.Error(), "the-new-passphrase") {
				t.Errorf("%s: the error quotes a passphrase: %s", tc.reason, e)
			}
		})
	}
}

func TestTampered(t *testing.T) {
	cfg := mustConfig(t, fastProvider("k", "tamper-test-passphrase")+`state { method = method.aes_gcm.k }`)
	sealed, err := cfg.StateTarget().Encrypt([]byte(plainState))
	if err != nil {
		t.Fatal(err)
	}
	env, _ := DecodeEnvelope(sealed)
	flip := func(f func(e *Envelope)) []byte {
		e := *env
		e.Data = append([]byte(nil), env.Data...)
		f(&e)
		out, _ := e.marshalState()
		return out
	}
	cases := map[string]struct {
		reason      string
		input       []byte
		wantSummary string
	}{
		"flipped bit": {
			reason:      "one bit of ciphertext changed fails authentication",
			input:       flip(func(e *Envelope) { e.Data[20] ^= 1 }),
			wantSummary: "Failed to decrypt state",
		},
		"truncated": {
			reason:      "data shorter than nonce and tag",
			input:       flip(func(e *Envelope) { e.Data = e.Data[:10] }),
			wantSummary: "Failed to decrypt state",
		},
		"future version": {
			reason:      "an unknown encryption_version is not guessed at",
			input:       flip(func(e *Envelope) { e.Version = "v9" }),
			wantSummary: "Invalid encrypted state",
		},
		"bad base64": {
			reason:      "encrypted_data that is not base64",
			input:       []byte(`{"meta":{},"encrypted_data":"!!!","encryption_version":"v0"}`),
			wantSummary: "Invalid encrypted state",
		},
		"bad metadata": {
			reason: "metadata that is not pbkdf2's JSON",
			input: flip(func(e *Envelope) {
				e.Meta = map[string][]byte{"key_provider.pbkdf2.k": []byte("{")}
			}),
			wantSummary: "Failed to decrypt state",
		},
		"absurd iterations": {
			reason: "a forged iteration count is refused before hashing",
			input: flip(func(e *Envelope) {
				e.Meta = map[string][]byte{"key_provider.pbkdf2.k": []byte(`{"salt":"` + base64.StdEncoding.EncodeToString([]byte("salt")) + `","iterations":2000000000,"hash_function":"sha256","key_length":32}`)}
			}),
			wantSummary: "Failed to decrypt state",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := cfg.StateTarget().Decrypt(tc.input)
			var e *Error
			if !errors.As(err, &e) || e.Summary != tc.wantSummary {
				t.Fatalf("%s: got %v, want summary %q", tc.reason, err, tc.wantSummary)
			}
		})
	}
}

func TestUnencryptedPrimaryWritesPlaintext(t *testing.T) {
	cfg := mustConfig(t, `method "unencrypted" "off" {}
state { method = method.unencrypted.off }`)
	out, err := cfg.StateTarget().Encrypt([]byte(plainState))
	if err != nil || string(out) != plainState {
		t.Errorf("got %q, %v; want the plaintext unchanged", out, err)
	}
}

func TestStateIdentity(t *testing.T) {
	cases := map[string]struct {
		reason      string
		src         string
		wantSerial  uint64
		wantLineage string
	}{
		"first":   {reason: "serial and lineage near the top", src: plainState, wantSerial: 7, wantLineage: "0b4e6a3c-1111-2222-3333-444455556666"},
		"last":    {reason: "after other keys", src: `{"resources":[1,2],"lineage":"x","serial":3}`, wantSerial: 3, wantLineage: "x"},
		"garbage": {reason: "not JSON", src: `nope`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s, l := stateIdentity([]byte(tc.src))
			var got uint64
			if s != nil {
				got = *s
			}
			if got != tc.wantSerial || l != tc.wantLineage {
				t.Errorf("%s: got %d %q, want %d %q", tc.reason, got, l, tc.wantSerial, tc.wantLineage)
			}
		})
	}
}

// TestEnvelopeLayout pins the bytes of an envelope to what OpenTofu
// writes: encoding/json's indented (state) and compact (plan) forms.
func TestEnvelopeLayout(t *testing.T) {
	serial := uint64(3)
	env := &Envelope{Serial: &serial, Lineage: "l-1", Meta: map[string][]byte{"key_provider.pbkdf2.b": []byte("{}"), "a": []byte("x")}, Data: []byte("sealed bytes"), Version: Version}
	wantState, _ := json.MarshalIndent(env, "", "  ")
	gotState, _ := env.marshalState()
	if diff := cmp.Diff(string(wantState)+"\n", string(gotState)); diff != "" {
		t.Errorf("state layout: -want +got\n%s", diff)
	}
	plan := &Envelope{Meta: env.Meta, Data: env.Data, Version: Version}
	wantPlan, _ := json.Marshal(plan)
	gotPlan, _ := plan.marshalPlan()
	if diff := cmp.Diff(string(wantPlan), string(gotPlan)); diff != "" {
		t.Errorf("plan layout: -want +got\n%s", diff)
	}
}

// TestUnconfigured: with no target block, plaintext passes and an
// envelope is explained rather than parsed as a state.
func TestUnconfigured(t *testing.T) {
	cfg := mustConfig(t, fastProvider("k", "unconfigured-passphrase")+`state { method = method.aes_gcm.k }`)
	sealed, err := cfg.StateTarget().Encrypt([]byte(plainState))
	if err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]*Target{"nil": nil, "no block": NewTarget(KindState, nil)} {
		t.Run(name, func(t *testing.T) {
			if out, err := target.Decrypt([]byte(plainState)); err != nil || string(out) != plainState {
				t.Errorf("plaintext: got %v", err)
			}
			if out, err := target.Encrypt([]byte(plainState)); err != nil || string(out) != plainState {
				t.Errorf("Encrypt must pass plaintext through: %v", err)
			}
			var e *Error
			if _, err := target.Decrypt(sealed); !errors.As(err, &e) || e.Summary != "Encrypted state" {
				t.Errorf("envelope: got %v, want summary %q", err, "Encrypted state")
			}
		})
	}
}

func TestCurrent(t *testing.T) {
	old := mustConfig(t, fastProvider("old", "the-old-passphrase")+`state { method = method.aes_gcm.old }`).StateTarget()
	sealedOld, err := old.Encrypt([]byte(plainState))
	if err != nil {
		t.Fatal(err)
	}
	rotating := mustConfig(t, fastProvider("new", "the-new-passphrase")+fastProvider("old", "the-old-passphrase")+`state {
  method = method.aes_gcm.new
  fallback { method = method.aes_gcm.old }
}`).StateTarget()
	sealedNew, err := rotating.Encrypt([]byte(plainState))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		target *Target
		stored []byte
		want   bool
	}{
		"own":         {reason: "what the target wrote", target: rotating, stored: sealedNew, want: true},
		"fallback":    {reason: "a fallback's key must be re-encrypted", target: rotating, stored: sealedOld},
		"plaintext":   {reason: "plaintext must be encrypted", target: rotating, stored: []byte(plainState)},
		"unencrypted": {reason: "a target that does not encrypt keeps plaintext", target: NewTarget(KindState, nil), stored: []byte(plainState), want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.target.Current(tc.stored); got != tc.want {
				t.Errorf("%s: Current = %v, want %v", tc.reason, got, tc.want)
			}
		})
	}
}

// TestEncryptRecordLayout: a record's envelope is the compact layout, and
// decrypts like any other.
func TestEncryptRecordLayout(t *testing.T) {
	target := mustConfig(t, fastProvider("k", "record-layout-passphrase")+`state { method = method.aes_gcm.k }`).StateTarget()
	for _, plain := range []string{`{"object":{"a":1}}`, ``, `x`} {
		sealed, err := target.EncryptRecord([]byte(plain))
		if err != nil {
			t.Fatal(err)
		}
		env, err := DecodeEnvelope(sealed)
		if err != nil {
			t.Fatalf("%q: %v", plain, err)
		}
		want, _ := env.marshalPlan()
		if diff := cmp.Diff(string(want), string(sealed)); diff != "" {
			t.Errorf("%q: -want +got\n%s", plain, diff)
		}
		if got, err := target.Decrypt(sealed); err != nil || string(got) != plain {
			t.Errorf("%q: decrypted %q, %v", plain, got, err)
		}
	}
}
