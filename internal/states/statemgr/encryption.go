package statemgr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/internal/encryption"
)

// Encryption transforms state bytes at rest: OpenTofu's state encryption
// (an *encryption.Target). Encrypt is applied to every snapshot and every
// journal record before it reaches disk, Decrypt to everything read back,
// so no plaintext state is written when encryption is configured. The
// pg backend calls the same seam.
type Encryption interface {
	Encrypt(plain []byte) ([]byte, error)
	Decrypt(stored []byte) ([]byte, error)
}

var _ Encryption = (*encryption.Target)(nil)

// Option configures a Filesystem.
type Option func(*Filesystem)

// WithEncryption makes the manager encrypt and decrypt with e. Without it
// (or with nil) states are written in the clear, and an encrypted state
// file is refused with an explanation rather than misread.
func WithEncryption(e Encryption) Option {
	return func(m *Filesystem) {
		if e != nil {
			m.enc = e
		}
	}
}

// noEncryption is the seam when none is configured: plaintext through,
// envelopes explained.
var noEncryption Encryption = encryption.NewTarget(encryption.KindState, nil)

// encrypting is the capability of an Encryption that can say whether it
// writes encrypted data, and whether stored data is already as it would
// write it (an *encryption.Target can).
type encrypting interface {
	Encrypted() bool
	Current(stored []byte) bool
}

// storedCurrent reports whether stored is already as enc would write it
// (see encrypting.Current); always so for an Encryption that cannot say.
func storedCurrent(enc Encryption, stored []byte) bool {
	e, ok := enc.(encrypting)
	return !ok || len(stored) == 0 || e.Current(stored)
}

// resealBackup returns how the backup is made from the previous snapshot
// when m encrypts: decrypted with whatever key wrote it and encrypted with
// the current one, so that neither a plaintext state nor one under a
// retired key stays on disk as the backup. A snapshot already under the
// current key is kept as it is (nil, nil). Without encryption it returns
// nil: the old file is always kept as it is.
func (m *Filesystem) resealBackup() func([]byte) ([]byte, error) {
	e, ok := m.enc.(encrypting)
	if !ok || !e.Encrypted() {
		return nil
	}
	return func(old []byte) ([]byte, error) {
		if e.Current(old) {
			return nil, nil
		}
		plain, err := m.enc.Decrypt(old)
		if err != nil {
			// A state that no key opens (tampered, or sealed with a
			// key since lost) is being replaced by a forced import: the
			// backup keeps its bytes, sealed once more so that nothing
			// in it is ever left in plaintext.
			plain = old
		}
		return m.enc.Encrypt(plain)
	}
}

// recordEncryption is the capability of an Encryption that encrypts small
// records into compact, one-line envelopes (an *encryption.Target can);
// other Encryptions' output is compacted.
type recordEncryption interface {
	EncryptRecord(plain []byte) ([]byte, error)
}

// sealRecord encrypts a journal record's body (`"object":{…}` or
// `"output":{…}`) into the body of a sealed line, `"sealed":{envelope}`.
// With no encryption (or the unencrypted method) the body is unchanged.
func (m *Filesystem) sealRecord(body []byte) ([]byte, error) {
	plain := make([]byte, 0, len(body)+2)
	plain = append(append(append(plain, '{'), body...), '}')
	re, compact := m.enc.(recordEncryption)
	var sealed []byte
	var err error
	if compact {
		sealed, err = re.EncryptRecord(plain)
	} else {
		sealed, err = m.enc.Encrypt(plain)
	}
	if err != nil {
		return nil, err
	}
	if bytes.Equal(sealed, plain) {
		return body, nil
	}
	out := bytes.NewBuffer(make([]byte, 0, len(sealed)+10))
	out.WriteString(`"sealed":`)
	if compact {
		out.Write(sealed)
		return out.Bytes(), nil
	}
	// A journal line is one line: the envelope must be compact.
	if err := json.Compact(out, sealed); err != nil {
		return nil, fmt.Errorf("encrypting a journal record: %w", err)
	}
	return out.Bytes(), nil
}

// unseal decrypts the journal's sealed records in place, and checks that
// plaintext records are acceptable (an unencrypted method is configured,
// or no encryption at all). A record that cannot be decrypted is an
// error, not damage: its checksum held, so the key is what is wrong.
func (j *journal) unseal(enc Encryption) error {
	if j.plain != nil {
		if _, err := enc.Decrypt(j.plain); err != nil {
			return err
		}
	}
	for _, lines := range [][]journalLine{j.records, j.salvaged} {
		for i := range lines {
			if err := lines[i].unseal(enc); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *journalLine) unseal(enc Encryption) error {
	if l.Sealed == nil {
		return nil
	}
	plain, err := enc.Decrypt(l.Sealed)
	if err != nil {
		return err
	}
	var inner journalLine
	if err := json.Unmarshal(plain, &inner); err != nil {
		return fmt.Errorf("record %d: decrypted record is not a record: %v", l.Seq, err)
	}
	if (inner.Object == nil) == (inner.Output == nil) || inner.Sealed != nil {
		return fmt.Errorf("record %d: %w", l.Seq, errors.New("the decrypted record holds no record, or two"))
	}
	l.Object, l.Output, l.Sealed = inner.Object, inner.Output, nil
	return nil
}
