package encryption

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"hash"
)

// OpenTofu's pbkdf2 key provider defaults and limits.
const (
	DefaultKeyLength     = 32
	DefaultIterations    = 600000
	DefaultSaltLength    = 32
	DefaultHashFunction  = "sha512"
	MinIterations        = 200000
	MinPassphraseLength  = 16
	pbkdf2ProviderType   = "pbkdf2"
	keyProviderMetaPrefx = "key_provider."
)

// hashFunctions are the hash functions pbkdf2 accepts, by the name used in
// configuration and metadata.
var hashFunctions = map[string]func() hash.Hash{
	"sha256": sha256.New,
	"sha512": sha512.New,
}

// pbkdf2Meta is the metadata the pbkdf2 key provider stores in an
// envelope: everything needed to derive the same key from the passphrase.
// The salt is base64 in JSON, as encoding/json writes []byte.
type pbkdf2Meta struct {
	Salt         []byte `json:"salt"`
	Iterations   int    `json:"iterations"`
	HashFunction string `json:"hash_function"`
	KeyLength    int    `json:"key_length"`
}

// present reports whether m holds all it must; OpenTofu treats an absent
// or partial entry as "no key to decrypt with".
func (m pbkdf2Meta) present() bool {
	return len(m.Salt) != 0 && m.Iterations != 0 && m.HashFunction != "" && m.KeyLength != 0
}

// maxDerivedKeyLength bounds what metadata read from a file may ask for:
// a forged envelope must not make Cairn allocate or hash without limit.
const (
	maxDerivedKeyLength = 1024
	maxIterations       = 100_000_000
)

// validate checks metadata read from a payload before it is used.
func (m pbkdf2Meta) validate() error {
	if m.Iterations < 1 || m.Iterations > maxIterations {
		return fmt.Errorf("invalid number of iterations (%d)", m.Iterations)
	}
	if m.KeyLength < 1 || m.KeyLength > maxDerivedKeyLength {
		return fmt.Errorf("invalid key length (%d)", m.KeyLength)
	}
	if _, ok := hashFunctions[m.HashFunction]; !ok {
		return fmt.Errorf("invalid hash function %q", m.HashFunction)
	}
	return nil
}

// derive returns the key m describes for passphrase.
func (m pbkdf2Meta) derive(passphrase string) ([]byte, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	return pbkdf2.Key(hashFunctions[m.HashFunction], passphrase, m.Salt, m.Iterations, m.KeyLength)
}

// newPBKDF2Meta returns fresh metadata for kp: its settings and a new
// random salt. Each Target draws one salt, for all it encrypts.
func newPBKDF2Meta(kp *KeyProvider) (pbkdf2Meta, error) {
	m := pbkdf2Meta{
		Salt:         make([]byte, kp.SaltLength),
		Iterations:   kp.Iterations,
		HashFunction: kp.HashFunction,
		KeyLength:    kp.KeyLength,
	}
	if _, err := rand.Read(m.Salt); err != nil {
		return m, fmt.Errorf("drawing a salt: %w", err)
	}
	return m, nil
}

// encodeMeta is the JSON stored (base64, by Envelope) under the key
// provider's meta key.
func (m pbkdf2Meta) encode() ([]byte, error) { return json.Marshal(m) }

// decodePBKDF2Meta parses a stored metadata entry.
func decodePBKDF2Meta(raw []byte) (pbkdf2Meta, error) {
	var m pbkdf2Meta
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, fmt.Errorf("invalid key provider metadata: %w", err)
	}
	return m, nil
}
