package encryption

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Kind is what a Target encrypts: state snapshots or plan files. It names
// the data in errors and decides the envelope's layout.
type Kind string

const (
	KindState Kind = "state"
	KindPlan  Kind = "plan"
	// KindRemoteState is states read by terraform_remote_state: state
	// files, configured by remote_state_data_sources.
	KindRemoteState Kind = "remote_state"
)

// Target encrypts and decrypts one kind of data with one target
// configuration (a state or plan block and its fallbacks). It is the seam
// every writer and reader of that data calls: Encrypt before bytes reach
// storage, Decrypt after they come back.
//
// The encryption key is derived once, on the first Encrypt, with one salt
// for everything the Target writes; decryption keys are derived once per
// distinct stored metadata and cached, and the key a Target encrypted
// with decrypts its own output without another derivation. A Target is
// safe for concurrent use.
type Target struct {
	kind  Kind
	chain []*Method

	encOnce sync.Once
	enc     *sealer
	encErr  error

	mu   sync.Mutex
	keys map[string]*aesGCM // by method address and stored metadata
}

// sealer is the encryption side: the cipher and the meta entry that lets
// a reader derive the same key.
type sealer struct {
	gcm     *aesGCM
	metaKey string
	meta    []byte
	// head is a compact envelope up to the start of the encrypted data,
	// the same for every record (see EncryptRecord).
	head []byte
}

// NewTarget returns the Target for cfg. A nil cfg yields the Target of
// data that is not encrypted: it writes plaintext, reads plaintext, and
// explains that an encrypted payload needs encryption configured. A nil
// *Target behaves the same way for states.
func NewTarget(kind Kind, cfg *TargetConfig) *Target {
	t := &Target{kind: kind, keys: map[string]*aesGCM{}}
	if cfg != nil {
		t.chain = cfg.chain()
	}
	return t
}

// StateTarget and PlanTarget return the Targets of a configuration; a nil
// Config, or one without that target, yields a Target that does not
// encrypt (see NewTarget).
func (c *Config) StateTarget() *Target {
	if c == nil {
		return NewTarget(KindState, nil)
	}
	return NewTarget(KindState, c.State)
}

// RemoteStateTarget is StateTarget for the states terraform_remote_state
// reads: remote_state_data_sources' default block.
func (c *Config) RemoteStateTarget() *Target {
	if c == nil {
		return NewTarget(KindRemoteState, nil)
	}
	return NewTarget(KindRemoteState, c.RemoteStateDefault)
}

// PlanTarget is StateTarget for plan files.
func (c *Config) PlanTarget() *Target {
	if c == nil {
		return NewTarget(KindPlan, nil)
	}
	return NewTarget(KindPlan, c.Plan)
}

func (t *Target) primary() *Method { return t.chain[0] }

// configured reports whether a target block exists for t's kind.
func (t *Target) configured() bool { return t != nil && len(t.chain) > 0 }

// Encrypted reports whether t writes encrypted data (its primary method is
// not unencrypted).
func (t *Target) Encrypted() bool {
	return t.configured() && t.primary().Type != MethodUnencrypted
}

// Encrypt returns what to store for plain: an envelope, or plain itself
// when the primary method is unencrypted (migrating back to plaintext).
// For states, the envelope repeats plain's serial and lineage in the
// clear, as OpenTofu's does.
func (t *Target) Encrypt(plain []byte) ([]byte, error) {
	if !t.Encrypted() {
		return plain, nil
	}
	env, err := t.seal(plain)
	if err != nil {
		return nil, err
	}
	if t.kind == KindPlan {
		return env.marshalPlan()
	}
	env.Serial, env.Lineage = stateIdentity(plain)
	return env.marshalState()
}

// Current reports whether stored is already as t would write it: an
// envelope holding key metadata of t's primary method's key provider.
// Such data needs no re-encryption (a backup can be kept as it is); any
// other (plaintext, a fallback's key) does.
func (t *Target) Current(stored []byte) bool {
	if !t.Encrypted() {
		return !IsEnvelope(stored)
	}
	env, err := DecodeEnvelope(stored)
	if err != nil {
		return false
	}
	_, ok := env.Meta[t.primary().Keys.MetaKey()]
	return ok
}

// EncryptRecord is Encrypt for a small piece of a state kept on its own,
// such as one journal record: the envelope is compact (one line) and
// carries no serial or lineage. It decrypts with Decrypt.
func (t *Target) EncryptRecord(plain []byte) ([]byte, error) {
	if !t.Encrypted() {
		return plain, nil
	}
	s, err := t.sealer()
	if err != nil {
		return nil, err
	}
	data, err := s.gcm.seal(plain)
	if err != nil {
		return nil, fmt.Errorf("encrypting %s: %w", t.kind, err)
	}
	// The compact layout (marshalPlan) with the head computed once: a
	// journal seals thousands of records with the same metadata.
	const tail = `","encryption_version":"` + Version + `"}`
	out := make([]byte, 0, len(s.head)+base64.StdEncoding.EncodedLen(len(data))+len(tail))
	out = append(out, s.head...)
	out = base64.StdEncoding.AppendEncode(out, data)
	return append(out, tail...), nil
}

func (t *Target) seal(plain []byte) (*Envelope, error) {
	s, err := t.sealer()
	if err != nil {
		return nil, err
	}
	data, err := s.gcm.seal(plain)
	if err != nil {
		return nil, fmt.Errorf("encrypting %s: %w", t.kind, err)
	}
	return &Envelope{Meta: map[string][]byte{s.metaKey: s.meta}, Data: data, Version: Version}, nil
}

// sealer derives the encryption key on first use.
func (t *Target) sealer() (*sealer, error) {
	t.encOnce.Do(func() {
		m := t.primary()
		meta, err := newPBKDF2Meta(m.Keys)
		if err != nil {
			t.encErr = fmt.Errorf("encrypting %s with %s: %w", t.kind, m.Keys, err)
			return
		}
		raw, err := meta.encode()
		if err != nil {
			t.encErr = err
			return
		}
		gcm, err := t.cipherFor(m, raw, meta)
		if err != nil {
			t.encErr = fmt.Errorf("encrypting %s with %s: %w", t.kind, m.Keys, err)
			return
		}
		head, _ := (&Envelope{Meta: map[string][]byte{m.Keys.MetaKey(): raw}, Version: Version}).marshalPlan()
		head = head[:bytes.Index(head, []byte(`"encrypted_data":"`))+len(`"encrypted_data":"`)]
		t.enc = &sealer{gcm: gcm, metaKey: m.Keys.MetaKey(), meta: raw, head: head}
	})
	return t.enc, t.encErr
}

// cipherFor returns the cipher of method m for the stored metadata raw
// (decoded as meta), deriving the key only if no earlier call did.
func (t *Target) cipherFor(m *Method, raw []byte, meta pbkdf2Meta) (*aesGCM, error) {
	id := m.Addr() + "\x00" + string(raw)
	t.mu.Lock()
	defer t.mu.Unlock()
	if g, ok := t.keys[id]; ok {
		return g, nil
	}
	key, err := meta.derive(m.Keys.passphrase)
	if err != nil {
		return nil, err
	}
	g, err := newAESGCM(key, m.AAD)
	if err != nil {
		return nil, err
	}
	t.keys[id] = g
	return g, nil
}

// Decrypt returns the plaintext of stored, trying the primary method and
// then each fallback. Plaintext input (not an envelope) is returned as is
// when an unencrypted method is in the chain, and refused otherwise.
// Empty input is returned as is: no data. Failures are *Error values.
func (t *Target) Decrypt(stored []byte) ([]byte, error) {
	if len(bytes.TrimSpace(stored)) == 0 {
		return stored, nil
	}
	env, err := DecodeEnvelope(stored)
	if errors.Is(err, errNotEnvelope) {
		return t.acceptPlain(stored)
	}
	if err != nil {
		return nil, &Error{Summary: "Invalid encrypted " + t.noun(), Detail: err.Error() + "."}
	}
	if !t.configured() {
		return nil, &Error{
			Summary: "Encrypted " + t.noun(),
			Detail: fmt.Sprintf("The %s is encrypted (OpenTofu's format, with %s), but no %s encryption is configured. "+
				"Add a terraform { encryption { ... } } block (or set %s) with a %s block and the key it was encrypted with.",
				t.noun(), metaKeys(env), t.noun(), EnvVariable, t.block()),
		}
	}
	var failures []string
	for _, m := range t.chain {
		if m.Type == MethodUnencrypted {
			continue
		}
		plain, err := t.open(m, env)
		if err == nil {
			return plain, nil
		}
		failures = append(failures, fmt.Sprintf("%s with %s: %s", m.Addr(), m.Keys.Addr(), err))
	}
	return nil, t.decryptError(failures)
}

// open decrypts env with method m: the key is derived from m's
// passphrase and the metadata stored under m's provider.
func (t *Target) open(m *Method, env *Envelope) ([]byte, error) {
	raw, ok := env.Meta[m.Keys.MetaKey()]
	if !ok {
		return nil, fmt.Errorf("the data holds no key metadata for %s (it was encrypted with %s)", m.Keys.MetaKey(), metaKeys(env))
	}
	meta, err := decodePBKDF2Meta(raw)
	if err != nil {
		return nil, err
	}
	if !meta.present() {
		return nil, fmt.Errorf("the key metadata for %s is incomplete", m.Keys.MetaKey())
	}
	gcm, err := t.cipherFor(m, raw, meta)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.open(env.Data)
	if errors.Is(err, errAuthentication) {
		return nil, errors.New("the passphrase is wrong, or the encrypted data was altered (authentication failed)")
	}
	return plain, err
}

func metaKeys(env *Envelope) string {
	if len(env.Meta) == 0 {
		return "no key provider"
	}
	var ks []string
	for k := range env.Meta {
		ks = append(ks, k)
	}
	return strings.Join(sortedCopy(ks), ", ")
}

func (t *Target) decryptError(failures []string) error {
	if len(failures) == 0 {
		return &Error{
			Summary: "Encrypted " + t.noun() + " cannot be read",
			Detail: fmt.Sprintf("The %s is encrypted, but the %s block configures no method that decrypts (only %s). "+
				"Add the method it was encrypted with as a fallback.", t.noun(), t.block(), t.primary().Addr()),
		}
	}
	return &Error{
		Summary: "Failed to decrypt " + t.noun(),
		Detail: fmt.Sprintf("No configured method could decrypt the %s:\n  - %s\n"+
			"Check the passphrase, or add the method and key provider the %s was encrypted with as a fallback. Nothing was changed.",
			t.noun(), strings.Join(failures, "\n  - "), t.noun()),
	}
}

// acceptPlain returns plaintext input when an unencrypted method allows
// it: a migration from unencrypted data is in progress (fallback) or has
// been reversed (primary).
func (t *Target) acceptPlain(stored []byte) ([]byte, error) {
	if !t.configured() {
		return stored, nil
	}
	for _, m := range t.chain {
		if m.Type == MethodUnencrypted {
			return stored, nil
		}
	}
	return nil, &Error{
		Summary: "Unencrypted " + t.noun(),
		Detail: fmt.Sprintf("The %s is not encrypted, but the %s block requires %s. To encrypt existing unencrypted data, "+
			"declare method \"unencrypted\" \"migrate\" {} and add fallback { method = method.unencrypted.migrate } "+
			"to the %s block for one run (not allowed with enforced = true).", t.noun(), t.block(), t.primary().Addr(), t.block()),
	}
}

func (t *Target) kindName() Kind {
	if t == nil {
		return KindState
	}
	return t.kind
}

func (t *Target) noun() string {
	switch t.kindName() {
	case KindPlan:
		return "plan file"
	case KindRemoteState:
		return "remote state"
	}
	return "state"
}

// block names the configuration block that sets t's methods.
func (t *Target) block() string {
	switch t.kindName() {
	case KindPlan:
		return "plan"
	case KindRemoteState:
		return "remote_state_data_sources default"
	}
	return "state"
}
