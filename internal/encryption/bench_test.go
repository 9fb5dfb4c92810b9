package encryption

import (
	"bytes"
	"fmt"
	"testing"
)

// bigState is a state document of n terraform_data instances, about the
// size Cairn writes for them.
func bigState(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"version":4,"terraform_version":"1.5.7","serial":12,"lineage":"0b4e6a3c-1111-2222-3333-444455556666","outputs":{},"resources":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"mode":"managed","type":"terraform_data","name":"r%d","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[{"schema_version":0,"attributes":{"id":"5e0a1f6c-7b7e-4f3a-9c55-%012d","input":"value %d","output":"value %d","triggers_replace":null},"sensitive_attributes":[]}]}`, i, i, i, i)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// BenchmarkState10k measures encrypting and decrypting a 10,000-instance
// state with the key already derived: the cost each state write and read
// adds once a run has its key.
func BenchmarkState10k(b *testing.B) {
	plain := bigState(10000)
	cfg := mustConfig(b, `key_provider "pbkdf2" "k" { passphrase = "benchmark-passphrase" }
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`)
	target := cfg.StateTarget()
	sealed, err := target.Encrypt(plain) // derives the key once
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encrypt", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			if _, err := target.Encrypt(plain); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decrypt", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			if _, err := target.Decrypt(sealed); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDeriveKey measures one PBKDF2 derivation at OpenTofu's default
// cost (sha512, 600000 iterations), which a run pays once to encrypt and
// once per distinct stored salt to decrypt.
func BenchmarkDeriveKey(b *testing.B) {
	kp := &KeyProvider{Type: "pbkdf2", Name: "k", passphrase: "benchmark-passphrase",
		KeyLength: DefaultKeyLength, Iterations: DefaultIterations, SaltLength: DefaultSaltLength, HashFunction: DefaultHashFunction}
	meta, err := newPBKDF2Meta(kp)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := meta.derive(kp.passphrase); err != nil {
			b.Fatal(err)
		}
	}
}
