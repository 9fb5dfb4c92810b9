package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// aesGCM seals and opens payloads as OpenTofu's aes_gcm method does:
// a random 12-byte nonce, followed by the GCM ciphertext with its 16-byte
// tag appended, with the method's aad (usually empty) authenticated.
// It is safe for concurrent use: cipher.AEAD keeps no state between calls.
type aesGCM struct {
	aead cipher.AEAD
	aad  []byte
}

// validAESKeyLength reports whether n bytes make an AES-128, -192 or -256
// key.
func validAESKeyLength(n int) bool { return n == 16 || n == 24 || n == 32 }

func newAESGCM(key, aad []byte) (*aesGCM, error) {
	if !validAESKeyLength(len(key)) {
		return nil, fmt.Errorf("AES-GCM needs a key of 16, 24 or 32 bytes, not %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &aesGCM{aead: aead, aad: aad}, nil
}

// seal returns nonce ‖ ciphertext ‖ tag.
func (g *aesGCM) seal(plain []byte) ([]byte, error) {
	ns := g.aead.NonceSize()
	out := make([]byte, ns, ns+len(plain)+g.aead.Overhead())
	if _, err := rand.Read(out); err != nil {
		return nil, fmt.Errorf("drawing a nonce: %w", err)
	}
	return g.aead.Seal(out, out[:ns], plain, g.aad), nil
}

// errAuthentication is what open returns when the tag does not match: a
// wrong key, a different aad, or altered bytes. GCM cannot tell them apart.
var errAuthentication = errors.New("message authentication failed")

func (g *aesGCM) open(sealed []byte) ([]byte, error) {
	ns := g.aead.NonceSize()
	if len(sealed) < ns+g.aead.Overhead() {
		return nil, errors.New("the encrypted data is too short to hold a nonce and a tag (likely damaged)")
	}
	plain, err := g.aead.Open(nil, sealed[:ns], sealed[ns:], g.aad)
	if err != nil {
		return nil, errAuthentication
	}
	return plain, nil
}
