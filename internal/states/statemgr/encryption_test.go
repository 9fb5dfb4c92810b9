package statemgr

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// testEncryption returns a state Target for passphrase at pbkdf2's lowest
// accepted cost; a fallback method is added when fallback is not "".
func testEncryption(t testing.TB, passphrase, fallback string) *encryption.Target {
	t.Helper()
	target, err := newTestEncryption(passphrase, fallback)
	if err != nil {
		t.Fatal(err)
	}
	return target
}

// childOptions are the options childPassphraseEnv asks for.
func childOptions() []Option {
	pass := os.Getenv(childPassphraseEnv)
	if pass == "" {
		return nil
	}
	target, err := newTestEncryption(pass, "")
	if err != nil {
		panic(err) // the test's own configuration: a bug in the test
	}
	return []Option{WithEncryption(target)}
}

func newTestEncryption(passphrase, fallback string) (*encryption.Target, error) {
	src := `key_provider "pbkdf2" "k" {
  passphrase    = "` + passphrase + `"
  hash_function = "sha256"
  iterations    = 200000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
method "unencrypted" "u" {}
state {
  method = method.aes_gcm.k
  ` + fallback + `
}`
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	cfg, diags := encryption.Decode(f.Body, hcl.Range{}, "", nil)
	if diags.HasErrors() {
		return nil, diags
	}
	return cfg.StateTarget(), nil
}

func TestEncryptedSnapshot(t *testing.T) {
	enc := testEncryption(t, "snapshot-passphrase", "")
	m := NewFilesystem(newManager(t).Path(), WithEncryption(enc))
	want, err := m.Persist(stateOf(3))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(m.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !encryption.IsEnvelope(src) || bytes.Contains(src, []byte("id-1")) {
		t.Fatalf("the state file is not an envelope, or holds attribute values in the clear:\n%s", src)
	}
	got, err := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "snapshot-passphrase", ""))).Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.State, got.State, cmpOpts); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}

	cases := map[string]struct {
		reason      string
		mgr         *Filesystem
		wantSummary string
	}{
		"no encryption": {
			reason:      "an encrypted file read without configuration is explained",
			mgr:         NewFilesystem(m.Path()),
			wantSummary: "Encrypted state",
		},
		"wrong passphrase": {
			reason:      "a wrong passphrase fails authentication",
			mgr:         NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "a-wrong-passphrase", ""))),
			wantSummary: "Failed to decrypt state",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for op, call := range map[string]func() error{
				"Read":    func() error { _, err := tc.mgr.Read(); return err },
				"Persist": func() error { _, err := tc.mgr.Persist(stateOf(5)); return err },
			} {
				var e *encryption.Error
				if err := call(); !errors.As(err, &e) || e.Summary != tc.wantSummary {
					t.Errorf("%s: %s: got %v, want summary %q", tc.reason, op, err, tc.wantSummary)
				}
			}
			after, _ := os.ReadFile(m.Path())
			if !bytes.Equal(src, after) {
				t.Errorf("%s: the state file changed", tc.reason)
			}
		})
	}
}

// TestEncryptedMigration: plaintext state, read through the unencrypted
// fallback, is written encrypted by the next Persist.
func TestEncryptedMigration(t *testing.T) {
	m := newManager(t)
	if _, err := m.Persist(stateOf(2)); err != nil {
		t.Fatal(err)
	}
	var e *encryption.Error
	if _, err := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "migration-passphrase", ""))).Read(); !errors.As(err, &e) || e.Summary != "Unencrypted state" {
		t.Fatalf("plaintext without the unencrypted fallback: got %v", err)
	}
	migrating := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "migration-passphrase", "fallback { method = method.unencrypted.u }")))
	if _, err := migrating.Persist(stateOf(3)); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(m.Path())
	if !encryption.IsEnvelope(src) {
		t.Fatal("the state was not encrypted by the migrating write")
	}
	got, err := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "migration-passphrase", ""))).Read()
	if err != nil || got.Serial != 2 {
		t.Fatalf("after migration: %v, serial %v", err, got)
	}
	// The backup, the plaintext snapshot before, is re-encrypted too.
	backup, err := os.ReadFile(m.backupPath)
	if err != nil {
		t.Fatal(err)
	}
	if !encryption.IsEnvelope(backup) {
		t.Errorf("the backup was left in the clear:\n%s", backup)
	}
	plain, err := testEncryption(t, "migration-passphrase", "").Decrypt(backup)
	if err != nil || !bytes.Contains(plain, []byte(`"serial": 1`)) {
		t.Errorf("the backup does not hold the previous snapshot: %v\n%s", err, plain)
	}
}

// TestEncryptedJournal: journal records are sealed, a crashed apply's
// journal is replayed and recovered with the key, and refused without it.
func TestEncryptedJournal(t *testing.T) {
	enc := testEncryption(t, "journal-passphrase", "")
	m := NewFilesystem(newManager(t).Path(), WithEncryption(enc))
	base, err := m.Persist(stateOf(1))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 20; i++ {
		if err := rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), testObject(i), testProvider); err != nil {
			t.Fatal(err)
		}
	}
	// The apply "crashes": the recorder is never closed.
	journal, err := os.ReadFile(m.journalPath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(journal, []byte("id-7")) || !bytes.Contains(journal, []byte(`"sealed":{`)) {
		t.Fatalf("journal records are not sealed:\n%s", journal)
	}
	var e *encryption.Error
	if _, err := NewFilesystem(m.Path()).Read(); !errors.As(err, &e) {
		t.Errorf("reading the sealed journal without encryption: got %v, want an *encryption.Error", err)
	}
	if _, err := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "a-wrong-passphrase", ""))).Read(); !errors.As(err, &e) || e.Summary != "Failed to decrypt state" {
		t.Errorf("reading the sealed journal with a wrong passphrase: got %v", err)
	}
	after := NewFilesystem(m.Path(), WithEncryption(testEncryption(t, "journal-passphrase", "")))
	got, err := after.Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stateOf(20), got.State, cmpOpts); diff != "" {
		t.Errorf("replayed (-want +got):\n%s", diff)
	}
	// Die as a killed process would: its descriptors, and so its locks,
	// go away with it.
	rec.journal.close()
	m.mu.Lock()
	m.lock.Close()
	m.mu.Unlock()
	if _, err := after.Recover(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m.journalPath); !os.IsNotExist(err) {
		t.Errorf("the journal is still there after recovery: %v", err)
	}
	src, _ := os.ReadFile(m.Path())
	if !encryption.IsEnvelope(src) || bytes.Contains(src, []byte("id-7")) {
		t.Error("the recovered snapshot is not encrypted")
	}
}

// TestEncryptedRotationBackup: after a key rotation, the backup is under
// the new key too; a write under an unchanged key keeps the old file.
func TestEncryptedRotationBackup(t *testing.T) {
	path := newManager(t).Path()
	if _, err := NewFilesystem(path, WithEncryption(testEncryption(t, "the-old-passphrase", ""))).Persist(stateOf(1)); err != nil {
		t.Fatal(err)
	}
	rotating := newTestEncryptionWithOld(t)
	m := NewFilesystem(path, WithEncryption(rotating))
	if _, err := m.Persist(stateOf(2)); err != nil {
		t.Fatal(err)
	}
	backup, _ := os.ReadFile(m.backupPath)
	if !rotating.Current(backup) {
		t.Errorf("the backup after rotation is not under the new key")
	}
	if plain, err := rotating.Decrypt(backup); err != nil || !bytes.Contains(plain, []byte(`"serial": 1`)) {
		t.Errorf("the backup does not hold the snapshot before the rotation: %v", err)
	}
	// Same key: the previous snapshot becomes the backup unchanged.
	before, _ := os.ReadFile(m.Path())
	if _, err := m.Persist(stateOf(3)); err != nil {
		t.Fatal(err)
	}
	if backup, _ := os.ReadFile(m.backupPath); !bytes.Equal(before, backup) {
		t.Error("a snapshot already under the current key was re-encrypted for the backup")
	}
}

// newTestEncryptionWithOld is a Target whose primary is the new key
// and whose fallback is "the-old-passphrase".
func newTestEncryptionWithOld(t *testing.T) *encryption.Target {
	t.Helper()
	src := `key_provider "pbkdf2" "new" {
  passphrase    = "the-new-passphrase-0"
  hash_function = "sha256"
  iterations    = 200000
}
key_provider "pbkdf2" "k" {
  passphrase    = "the-old-passphrase"
  hash_function = "sha256"
  iterations    = 200000
}
method "aes_gcm" "new" { keys = key_provider.pbkdf2.new }
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state {
  method = method.aes_gcm.new
  fallback { method = method.aes_gcm.k }
}`
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cfg, diags := encryption.Decode(f.Body, hcl.Range{}, "", nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg.StateTarget()
}
