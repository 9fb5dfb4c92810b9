package encryption

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecodeEnvelope: any input yields an envelope or an error, never a
// panic; and Decrypt, given whatever decodes, returns plaintext or an
// error.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, name := range []string{"defaults.tfstate", "sha256.tfplan"} {
		if src, err := os.ReadFile(filepath.Join("testdata", "tofu", name)); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte(plainState))
	f.Add([]byte(`{"meta":{"key_provider.pbkdf2.k":"e30="},"encrypted_data":"AAAA","encryption_version":"v0"}`))
	f.Add([]byte(`{"encryption_version":"v1"}`))
	f.Add([]byte("PK\x03\x04"))
	cfg := mustConfig(f, fastProvider("k", "fuzzing-passphrase-0")+`method "unencrypted" "u" {}
state {
  method = method.aes_gcm.k
  fallback { method = method.unencrypted.u }
}`)
	target := cfg.StateTarget()
	f.Add([]byte(`{"meta":{"encrypted_data":"eA=="},"encrypted_data":"AAAA","encryption_version":"v0"}`))
	f.Add([]byte(`{"meta":{},"encrypted_data":"AA\u0041A","encryption_version":"v0"}`))
	f.Add([]byte(`{"meta":{},"encrypted_data":"AAAA","encrypted\u005fdata":"","encryption_version":"v0"}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		env, err := DecodeEnvelope(src)
		if (env == nil) == (err == nil) {
			t.Fatalf("got envelope %v and error %v; want exactly one", env, err)
		}
		// The fast path agrees with encoding/json whenever it answers.
		if fast, ok := decodeEnvelopeFast(bytes.TrimSpace(src)); ok {
			var slow Envelope
			if err := json.Unmarshal(bytes.TrimSpace(src), &slow); err != nil {
				t.Fatalf("the fast path accepted what encoding/json refuses (%v)", err)
			}
			if !bytes.Equal(fast.Data, slow.Data) || fast.Version != slow.Version || len(fast.Meta) != len(slow.Meta) {
				t.Fatalf("fast path %+v, encoding/json %+v", fast, slow)
			}
		}
		// Skip real key derivations for metadata the fuzzer invents:
		// they are valid but slow, and not what this target checks.
		if env != nil && len(env.Meta) > 0 {
			return
		}
		plain, err := target.Decrypt(src)
		if (plain == nil && len(src) > 0) == (err == nil) && len(src) > 0 {
			t.Fatalf("got %d bytes and error %v", len(plain), err)
		}
	})
}
