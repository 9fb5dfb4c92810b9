package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/tests3"
)

const journalDir = "net/terraform.tfstate.cairn-journal/"

// TestCrashedApplyIsReplayed: an apply abandoned without Close (the
// process killed) leaves every acknowledged object in journal objects; a
// fresh client's Read replays them without writing, and the next write
// (here Recover, after breaking the dead run's lock) folds them into the
// state object and deletes the journal.
func TestCrashedApplyIsReplayed(t *testing.T) {
	srv := tests3.Start(t)
	crashed := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	base, rec := backendtest.ApplyRecorded(t, crashed, 1, 4)
	if err := rec.SetOutput("out", nil); err != nil {
		t.Fatal(err)
	}
	stored, _ := srv.Get(t, "net/terraform.tfstate")

	fresh := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	f, err := fresh.Read()
	if err != nil {
		t.Fatal(err)
	}
	if n := backendtest.CountInstances(f.State); n != 4 || f.Serial != base.Serial {
		t.Fatalf("Read after the crash: %d instances at serial %d, want 4 at the base serial %d", n, f.Serial, base.Serial)
	}
	if now, _ := srv.Get(t, "net/terraform.tfstate"); !bytes.Equal(now, stored) {
		t.Fatal("Read wrote the state object")
	}
	where, err := fresh.StoredAt()
	if err != nil || len(where) != 2 || !strings.HasSuffix(where[1], journalDir) {
		t.Fatalf("StoredAt = %q, %v", where, err)
	}
	// The dead run's lock object stays until it is broken.
	if _, err := fresh.Recover(false); err == nil {
		t.Fatal("Recover while the crashed run's lock object exists succeeded")
	}
	var held statemgr.LockInfo
	body, _ := srv.Get(t, "net/terraform.tfstate.tflock")
	if err := json.Unmarshal(body, &held); err != nil {
		t.Fatal(err)
	}
	if err := fresh.ForceUnlock(held.ID); err != nil {
		t.Fatal(err)
	}
	r, err := fresh.Recover(false)
	if err != nil || r.Records != 4 {
		t.Fatalf("Recover = %+v, %v; want 4 records", r, err)
	}
	if keys := srv.List(t, journalDir); len(keys) != 0 {
		t.Fatalf("journal objects left after Recover: %q", keys)
	}
	f, err = fresh.Read()
	if err != nil || backendtest.CountInstances(f.State) != 4 || f.Serial != base.Serial+1 {
		t.Fatalf("after Recover: %+v, %v", f, err)
	}
}

// TestApplyWritesOnceAndCleansUp: an apply's objects go to the journal,
// Close writes the state object once and deletes the journal; the serial
// is one above the base.
func TestApplyWritesOnceAndCleansUp(t *testing.T) {
	srv := tests3.Start(t)
	s := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	unlock, err := s.Lock(context.Background(), statemgr.LockInfo{Operation: "OperationTypeApply"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.BeginApply(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(backendtest.ObjectAddr(1), backendtest.Object(1), backendtest.Provider); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err == nil {
		t.Fatal("unlocking while the apply records succeeded")
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate"); ok {
		t.Fatal("the state object was written before Close")
	}
	if keys := srv.List(t, journalDir); len(keys) != 2 {
		t.Fatalf("journal objects %q, want the header and one record", keys)
	}
	if _, err := s.Read(); err == nil {
		t.Error("Read while the apply is open succeeded")
	}
	f, err := rec.Close()
	if err != nil || f.Serial != 1 || backendtest.CountInstances(f.State) != 1 {
		t.Fatalf("Close = %+v, %v", f, err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if keys := srv.List(t, ""); len(keys) != 1 || keys[0] != "net/terraform.tfstate" {
		t.Fatalf("bucket after Close and unlock holds %q, want only the state object", keys)
	}
	if _, err := rec.Close(); !errors.Is(err, statemgr.ErrRecorderClosed) {
		t.Errorf("second Close = %v", err)
	}
}

// TestConcurrentSetObjectAsync: many instances finishing at once are all
// recorded, in groups (fewer objects than records), and all in the state
// Close writes.
func TestConcurrentSetObjectAsync(t *testing.T) {
	srv := tests3.Start(t)
	s := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	rec, err := s.BeginApply(nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	backendtest.RecordAll(t, n, func(i int) error {
		wait, err := rec.SetObjectAsync(backendtest.ObjectAddr(i), backendtest.Object(i), backendtest.Provider)
		if err != nil {
			return err
		}
		return wait()
	})
	groups := len(srv.List(t, journalDir)) - 1
	replayed, err := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default").Read()
	if err != nil || backendtest.CountInstances(replayed.State) != n {
		t.Fatalf("a reader during the apply sees %v, %v; want all %d acknowledged instances", replayed, err, n)
	}
	t.Logf("%d records in %d journal objects", n, groups)
	f, err := rec.Close()
	if err != nil || backendtest.CountInstances(f.State) != n {
		t.Fatalf("Close = %v, %v", f, err)
	}
}

// TestDamagedJournalIsRefusedUntilAccepted: a journal object removed from
// the middle (by hand) loses records that were acknowledged, so reading
// refuses; Recover(true) keeps the records before the gap and moves the
// journal aside.
func TestDamagedJournalIsRefusedUntilAccepted(t *testing.T) {
	srv := tests3.Start(t)
	crashed := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	backendtest.ApplyRecorded(t, crashed, 1, 4)
	srv.Delete(t, journalDir+"00000000000000000002")
	srv.Delete(t, "net/terraform.tfstate.tflock") // the crashed run's
	s := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	var de *applyjournal.DamageError
	if _, err := s.Read(); !errors.As(err, &de) || de.Kept != 1 || de.Seq != 2 {
		t.Fatalf("Read = %v, want damage at record 2 with 1 record kept", err)
	}
	if _, err := s.Persist(backendtest.StateWith(9)); !errors.As(err, &de) {
		t.Fatalf("Persist over a damaged journal = %v", err)
	}
	if _, err := s.Recover(false); !errors.As(err, &de) {
		t.Fatalf("Recover(false) = %v", err)
	}
	r, err := s.Recover(true)
	if err != nil || r.Records != 1 || !strings.Contains(r.Damaged, ".cairn-journal-damaged-") {
		t.Fatalf("Recover(true) = %+v, %v", r, err)
	}
	if keys := srv.List(t, journalDir); len(keys) != 0 {
		t.Fatalf("journal left in place: %q", keys)
	}
	if aside := srv.List(t, "net/terraform.tfstate.cairn-journal-damaged-"); len(aside) != 3 {
		t.Fatalf("journal set aside: %q, want its 3 objects", aside)
	}
	f, err := s.Read()
	if err != nil || backendtest.CountInstances(f.State) != 2 {
		t.Fatalf("after Recover(true): %v, %v; want the base and record 1", f, err)
	}
}

// TestPushSupersedesJournal: the errored.tfstate a crashed apply saved
// (its lineage, a higher serial) replaces the journal when pushed.
func TestPushSupersedesJournal(t *testing.T) {
	srv := tests3.Start(t)
	crashed := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	_, rec := backendtest.ApplyRecorded(t, crashed, 1, 2)
	errored := rec.Snapshot()
	srv.Delete(t, "net/terraform.tfstate.tflock")
	s := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	if err := s.Import(errored, false); err != nil {
		t.Fatal(err)
	}
	if keys := srv.List(t, journalDir); len(keys) != 0 {
		t.Fatalf("journal left after the push: %q", keys)
	}
	f, err := s.Read()
	if err != nil || f.Serial != errored.Serial || f.Lineage != errored.Lineage {
		t.Fatalf("after push: %+v, %v", f, err)
	}
}

// TestEncryptionRoundTrip: with OpenTofu's state encryption every stored
// byte (state object and journal records) is sealed, a reader with the
// key reads it, and a reader without one is refused and changes nothing.
func TestEncryptionRoundTrip(t *testing.T) {
	srv := tests3.Start(t)
	cfg := testConfig(srv)
	cfg.Transform = testEncryption(t, "a passphrase of sixteen or more")
	s := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	base, err := s.Persist(backendtest.StateWith(1))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(backendtest.ObjectAddr(7), backendtest.Object(7), backendtest.Provider); err != nil {
		t.Fatal(err)
	}
	for _, k := range srv.List(t, journalDir)[1:] {
		body, _ := srv.Get(t, k)
		if bytes.Contains(body, []byte("id-7")) || bytes.Contains(body, []byte("terraform_data")) {
			t.Errorf("journal object %s holds the record in the clear: %s", k, body)
		}
	}
	if _, err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	stored, _ := srv.Get(t, "net/terraform.tfstate")
	if !encryption.IsEnvelope(stored) || bytes.Contains(stored, []byte("id-1")) {
		t.Fatalf("state object is not sealed: %s", stored)
	}
	f, err := stateOf(t, openTest(t, cfg, openOptions{}), "default").Read()
	if err != nil || backendtest.CountInstances(f.State) != 2 {
		t.Fatalf("Read with the key: %v, %v", f, err)
	}
	plain := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	var ue *statemgr.UnreadableError
	if _, err := plain.Read(); !errors.As(err, &ue) {
		t.Fatalf("Read without the key = %v, want an UnreadableError", err)
	}
	if _, err := plain.Persist(backendtest.StateWith(1)); err == nil {
		t.Fatal("Persist without the key succeeded")
	}
	if now, _ := srv.Get(t, "net/terraform.tfstate"); !bytes.Equal(now, stored) {
		t.Fatal("a reader without the key changed the object")
	}
}

func testEncryption(t testing.TB, passphrase string) *encryption.Target {
	t.Helper()
	src := `key_provider "pbkdf2" "k" {
  passphrase    = "` + passphrase + `"
  hash_function = "sha256"
  iterations    = 200000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`
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

// hookClient runs hook once, before the first request whose URL path
// ends with suffix, as another process acting at that moment would.
type hookClient struct {
	suffix string
	once   sync.Once
	hook   func()
}

func (h *hookClient) Do(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, h.suffix) && r.Method == http.MethodGet {
		h.once.Do(h.hook)
	}
	return http.DefaultClient.Do(r)
}

// TestReaderRacesClose: an apply that finishes (state written, journal
// deleted) between a reader's listing of the journal and its reading of
// a journal object makes the reader read again, and see the new state.
func TestReaderRacesClose(t *testing.T) {
	srv := tests3.Start(t)
	writer := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	rec, err := writer.BeginApply(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(backendtest.ObjectAddr(1), backendtest.Object(1), backendtest.Provider); err != nil {
		t.Fatal(err)
	}
	hook := &hookClient{suffix: journalDir + "00000000000000000001", hook: func() {
		if _, err := rec.Close(); err != nil {
			t.Error(err)
		}
	}}
	reader := stateOf(t, openTest(t, testConfig(srv), openOptions{httpClient: hook}), "default")
	f, err := reader.Read()
	if err != nil || f == nil || f.Serial != 1 || backendtest.CountInstances(f.State) != 1 {
		t.Fatalf("Read racing Close = %+v, %v; want the closed apply's state", f, err)
	}
}
