package encryption

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the encryption_version OpenTofu 1.7 to 1.12 write. It marks
// a payload as encrypted as well as naming its format.
const Version = "v0"

// Envelope is an encrypted payload as OpenTofu stores it:
//
//	{"serial":3,"lineage":"…",
//	 "meta":{"key_provider.pbkdf2.k":"<base64 of the provider's JSON metadata>"},
//	 "encrypted_data":"<base64 of nonce ‖ ciphertext ‖ tag>",
//	 "encryption_version":"v0"}
//
// serial and lineage are written for states only, in the clear, so that
// tools can compare snapshots without the key. Meta holds, for each key
// provider used to encrypt, the metadata needed to derive the key again
// (for pbkdf2: salt, iterations, hash function, key length), keyed by
// "key_provider.TYPE.NAME" or the provider's encrypted_metadata_alias.
type Envelope struct {
	Serial  *uint64           `json:"serial,omitempty"`
	Lineage string            `json:"lineage,omitempty"`
	Meta    map[string][]byte `json:"meta"`
	Data    []byte            `json:"encrypted_data"`
	Version string            `json:"encryption_version"`
}

// errNotEnvelope is returned by DecodeEnvelope for input that is not an
// encrypted payload at all (plain state, a plan's zip bytes, garbage).
var errNotEnvelope = errors.New("not an encrypted payload")

// IsEnvelope reports whether src looks like an encrypted payload: a JSON
// object with an encryption_version. It is cheap for large plaintext
// states, which it rejects after their first key.
func IsEnvelope(src []byte) bool {
	_, err := DecodeEnvelope(src)
	return err == nil || !errors.Is(err, errNotEnvelope)
}

// DecodeEnvelope parses an encrypted payload. It returns an error wrapping
// errNotEnvelope (see IsEnvelope) when src is not one, and another error
// when it is one but damaged or of an unknown version. It never panics.
func DecodeEnvelope(src []byte) (*Envelope, error) {
	trimmed := bytes.TrimSpace(src)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errNotEnvelope
	}
	if !mentionsVersion(trimmed) {
		return nil, errNotEnvelope
	}
	var env Envelope
	if err := json.Unmarshal(trimmed, &env); err != nil {
		return nil, fmt.Errorf("the encrypted payload is damaged: %w", err)
	}
	switch env.Version {
	case "":
		return nil, errNotEnvelope
	case Version:
	default:
		return nil, fmt.Errorf("the encrypted payload has encryption_version %q; this version of Cairn reads %q only", env.Version, Version)
	}
	return &env, nil
}

// mentionsVersion is a quick filter: a plaintext state is not decoded
// into an envelope just to learn that it is not one.
func mentionsVersion(src []byte) bool {
	return bytes.Contains(src, []byte(`"encryption_version"`))
}

// marshalState encodes an envelope as OpenTofu writes state files:
// indented by two spaces, with a final newline.
func (e *Envelope) marshalState() ([]byte, error) {
	out, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// marshalPlan encodes an envelope as OpenTofu writes plan files: compact.
func (e *Envelope) marshalPlan() ([]byte, error) {
	return json.Marshal(e)
}
