package plans

import (
	"bytes"
	"io"
)

// Encryption transforms a whole plan file at rest, as OpenTofu's plan
// encryption does (an *encryption.Target): Encrypt before the file is
// written, Decrypt after it is read. A nil Encryption leaves files in
// the clear.
type Encryption interface {
	Encrypt(plain []byte) ([]byte, error)
	Decrypt(stored []byte) ([]byte, error)
}

// WriteEncryptedFile writes p as a plan file encrypted with enc. The
// plaintext is built in memory, so nothing unencrypted reaches w.
func WriteEncryptedFile(w io.Writer, p *Plan, enc Encryption) error {
	if enc == nil {
		return WriteFile(w, p)
	}
	var buf bytes.Buffer
	if err := WriteFile(&buf, p); err != nil {
		return err
	}
	out, err := enc.Encrypt(buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// ReadEncryptedFile reads a plan file from src, decrypting it with enc.
// Decryption failures are enc's errors, unwrapped, so that callers can
// show them as they are.
func ReadEncryptedFile(src []byte, enc Encryption) (*Plan, error) {
	if enc != nil {
		plain, err := enc.Decrypt(src)
		if err != nil {
			return nil, err
		}
		src = plain
	}
	return ReadFile(bytes.NewReader(src))
}
