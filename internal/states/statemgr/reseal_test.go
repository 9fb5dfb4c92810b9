package statemgr

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// TestUnchangedPersistReseals: a state read through a fallback method
// (plaintext here) is written back under the primary method by a Persist
// of the same state, serial unchanged, so that one run with no changes
// completes a migration; once it is current, an unchanged Persist writes
// nothing.
func TestUnchangedPersistReseals(t *testing.T) {
	m := newManager(t)
	first, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	migrating := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "migration-passphrase", "fallback { method = method.unencrypted.u }")))
	got, err := migrating.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(m.Path())
	if !encryption.IsEnvelope(src) || got.Serial != first.Serial || got.Lineage != first.Lineage {
		t.Fatalf("unchanged Persist through the fallback: encrypted=%v serial %d (want %d)", encryption.IsEnvelope(src), got.Serial, first.Serial)
	}
	before, _ := os.Stat(m.Path())
	if _, err := migrating.Persist(stateOf(2)); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(m.Path())
	if !os.SameFile(before, after) {
		t.Error("an unchanged Persist of a current state rewrote the file")
	}
	if _, err := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "migration-passphrase", ""))).Read(); err != nil {
		t.Errorf("without the fallback: %v", err)
	}
}

// TestForcedImportReplacesUnreadable: a state that no key opens (here
// altered ciphertext) is an UnreadableError for Read, Persist and an
// unforced Import; a forced Import replaces it, keeping its bytes in the
// backup (ciphertext under the current key, so kept as it is).
func TestForcedImportReplacesUnreadable(t *testing.T) {
	enc := testEncryption(t, "tamper-passphrase-0", "")
	m := NewFilesystem(newManager(t).Path(), WithEncryption(enc))
	good, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(m.Path())
	tampered := bytes.Replace(src, []byte(`"encrypted_data": "`), []byte(`"encrypted_data": "AAAA`), 1)
	if err := os.WriteFile(m.Path(), tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	m = NewFilesystem(m.Path(), WithEncryption(enc))
	var ue *UnreadableError
	if _, err := m.Read(); !errors.As(err, &ue) {
		t.Fatalf("Read = %v; want an UnreadableError", err)
	}
	if _, err := m.Persist(stateOf(3)); !errors.As(err, &ue) {
		t.Fatalf("Persist = %v; want an UnreadableError", err)
	}
	push := &statefile.File{Lineage: good.Lineage, Serial: good.Serial + 1, State: stateOf(3)}
	if err := m.Import(push, false); !errors.As(err, &ue) {
		t.Fatalf("Import without force = %v; want an UnreadableError", err)
	}
	if err := m.Import(push, true); err != nil {
		t.Fatalf("Import with force: %v", err)
	}
	f, err := m.Read()
	if err != nil || f.Serial != push.Serial {
		t.Fatalf("after the forced import: %+v, %v", f, err)
	}
	if backup, _ := os.ReadFile(m.backupPath); !bytes.Equal(backup, tampered) {
		t.Errorf("the backup does not hold the tampered state:\n%s", backup)
	}
}
