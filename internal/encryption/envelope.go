package encryption

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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
	env, ok := decodeEnvelopeFast(trimmed)
	if !ok {
		env = &Envelope{}
		if err := json.Unmarshal(trimmed, env); err != nil {
			return nil, fmt.Errorf("the encrypted payload is damaged: %w", err)
		}
	}
	return checkVersion(env)
}

func checkVersion(env *Envelope) (*Envelope, error) {
	switch env.Version {
	case "":
		return nil, errNotEnvelope
	case Version:
	default:
		return nil, fmt.Errorf("the encrypted payload has encryption_version %q; this version of Cairn reads %q only", env.Version, Version)
	}
	return env, nil
}

var dataKey = []byte(`"encrypted_data"`)

// decodeEnvelopeFast decodes an envelope without running the JSON decoder
// over its megabytes of base64: the encrypted_data string is cut out and
// decoded directly, and the small rest goes through encoding/json. It
// gives up (ok false) on anything unusual, such as escapes in the data or
// the key appearing twice, leaving it to json.Unmarshal; both paths give
// the same result (FuzzDecodeEnvelope checks).
func decodeEnvelopeFast(src []byte) (*Envelope, bool) {
	at := bytes.Index(src, dataKey)
	if at < 0 || bytes.Index(src[at+len(dataKey):], dataKey) >= 0 {
		return nil, false
	}
	i := skipSpace(src, at+len(dataKey))
	if i >= len(src) || src[i] != ':' {
		return nil, false
	}
	i = skipSpace(src, i+1)
	if i >= len(src) || src[i] != '"' {
		return nil, false
	}
	end := bytes.IndexByte(src[i+1:], '"')
	if end < 0 {
		return nil, false
	}
	b64 := src[i+1 : i+1+end]
	if !isBase64Text(b64) {
		return nil, false
	}
	data, err := base64.StdEncoding.AppendDecode(nil, b64)
	if err != nil {
		return nil, false
	}
	rest := make([]byte, 0, len(src)-len(b64))
	rest = append(append(rest, src[:i+1]...), src[i+1+end:]...)
	if bytes.IndexByte(rest, '\\') >= 0 {
		// An escape could spell the key a second time ("encrypted\u005fdata").
		return nil, false
	}
	var env struct {
		Envelope
		Data *string `json:"encrypted_data"`
	}
	if json.Unmarshal(rest, &env) != nil || env.Data == nil || *env.Data != "" {
		return nil, false
	}
	env.Envelope.Data = data
	return &env.Envelope, true
}

// isBase64Text reports whether b can be handed to the base64 decoder as
// JSON would: the decoder skips line breaks, which a JSON string cannot
// hold, and rejects every other byte outside its alphabet (escapes
// included), which sends the input to the slow path.
func isBase64Text(b []byte) bool {
	return bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') < 0
}

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// mentionsVersion is a quick filter: a plaintext state is not decoded
// into an envelope just to learn that it is not one.
func mentionsVersion(src []byte) bool {
	return bytes.Contains(src, []byte(`"encryption_version"`))
}

// marshalState encodes an envelope as OpenTofu writes state files:
// indented by two spaces, with a final newline. It is written by hand
// because encoding/json's indenting pass over megabytes of base64 costs
// more than the encryption itself.
func (e *Envelope) marshalState() ([]byte, error) {
	return e.marshal("\n  ", "\n    ", "\n", ": ", true)
}

// marshalPlan encodes an envelope as OpenTofu writes plan files: compact.
func (e *Envelope) marshalPlan() ([]byte, error) {
	return e.marshal("", "", "", ":", false)
}

// marshal writes the envelope's fields in OpenTofu's order; nl starts a
// top-level field, nl2 a meta entry, end closes an object's last line.
func (e *Envelope) marshal(nl, nl2, end, colon string, finalNewline bool) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(base64.StdEncoding.EncodedLen(len(e.Data)) + 512)
	b.WriteByte('{')
	field := func(name string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(nl)
		b.WriteString(`"` + name + `"` + colon)
	}
	if e.Serial != nil {
		field("serial")
		b.WriteString(strconv.FormatUint(*e.Serial, 10))
	}
	if e.Lineage != "" {
		field("lineage")
		writeJSONString(&b, e.Lineage)
	}
	field("meta")
	b.WriteByte('{')
	keys := make([]string, 0, len(e.Meta))
	for k := range e.Meta {
		keys = append(keys, k)
	}
	for i, k := range sortedCopy(keys) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(nl2)
		writeJSONString(&b, k)
		b.WriteString(colon)
		writeBase64(&b, e.Meta[k])
	}
	if len(keys) > 0 {
		b.WriteString(nl)
	}
	b.WriteByte('}')
	field("encrypted_data")
	writeBase64(&b, e.Data)
	field("encryption_version")
	writeJSONString(&b, e.Version)
	b.WriteString(end)
	b.WriteByte('}')
	if finalNewline {
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s) // a string always encodes
	b.Write(q)
}

func writeBase64(b *bytes.Buffer, data []byte) {
	buf := b.AvailableBuffer()
	buf = append(buf, '"')
	buf = base64.StdEncoding.AppendEncode(buf, data)
	b.Write(append(buf, '"'))
}
