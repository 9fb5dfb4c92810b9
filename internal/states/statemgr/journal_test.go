package statemgr

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// abandon leaves r as a killed process would: journal and lock file open
// files dropped, nothing cleaned up. The kernel's part (releasing the
// flock) happens when the lock file is closed.
func abandon(t *testing.T, r *Recorder) {
	t.Helper()
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	r.journal.f.Close()
	if m.lock != nil {
		m.lock.Close()
		m.lock = nil
	}
	m.rec = nil
}

// applyThenCrash persists base (n instances), then records the changes in
// crashChanges and abandons the apply. It returns the base snapshot and
// the state the changes should lead to.
func applyThenCrash(t *testing.T, m *Filesystem, n int) (*statefile.File, *states.State) {
	t.Helper()
	var base *statefile.File
	if n > 0 {
		var err error
		if base, err = m.Persist(stateOf(n)); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	want := stateOf(n)
	for i := n; i < n+5; i++ {
		if err := rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), testObject(i), testProvider); err != nil {
			t.Fatal(err)
		}
		want.SetResourceInstanceCurrent(instanceAddr(i), testObject(i), testProvider)
	}
	if n > 0 {
		if err := rec.SetObject(instanceAddr(0).Object(addrs.NotDeposed), nil, testProvider); err != nil {
			t.Fatal(err)
		}
		want.SetResourceInstanceCurrent(instanceAddr(0), nil, testProvider)
	}
	if err := rec.SetObject(instanceAddr(n).Object("0000abcd"), testObject(99), testProvider); err != nil {
		t.Fatal(err)
	}
	want.SetResourceInstanceDeposed(instanceAddr(n), "0000abcd", testObject(99), testProvider)
	out := &states.OutputValue{Value: cty.StringVal("done"), Sensitive: true}
	if err := rec.SetOutput("result", out); err != nil {
		t.Fatal(err)
	}
	want.Outputs["result"] = out
	abandon(t, rec)
	return base, want
}

func TestJournalRecovery(t *testing.T) {
	tests := map[string]struct {
		reason     string
		base       int
		wantSerial uint64
	}{
		"on a snapshot":  {reason: "an apply that started from an existing state", base: 3, wantSerial: 2},
		"from no state":  {reason: "a first apply, with no state file yet", base: 0, wantSerial: 1},
		"on a big state": {reason: "more instances than fit one buffer", base: 1000, wantSerial: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := newManager(t)
			base, want := applyThenCrash(t, m, tc.base)

			got, err := NewFilesystem(m.Path()).Read()
			if err != nil {
				t.Fatalf("Read after the crash: %v", err)
			}
			if diff := cmp.Diff(want, got.State, cmpOpts); diff != "" {
				t.Errorf("recovered state (-want +got):\n%s", diff)
			}
			if got.Serial != tc.wantSerial {
				t.Errorf("recovered serial %d, want %d", got.Serial, tc.wantSerial)
			}
			if base != nil && got.Lineage != base.Lineage {
				t.Errorf("recovered lineage %s, want %s", got.Lineage, base.Lineage)
			}
			// Recovery was persisted: the journal is gone and the file on
			// disk is the recovered state.
			if _, err := os.Stat(m.journalPath); !os.IsNotExist(err) {
				t.Errorf("journal still exists after recovery")
			}
			onDisk, err := NewFilesystem(m.Path()).Read()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, onDisk, cmpOpts); diff != "" {
				t.Errorf("state file after recovery (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJournalReplayedReadOnlyWhileLocked(t *testing.T) {
	m := newManager(t)
	base, want := applyThenCrash(t, m, 3)
	// Another run holds the lock (it may be that run's live journal):
	// Read shows the replay but changes nothing.
	holder := NewFilesystem(m.Path())
	unlock, err := holder.Lock(t.Context(), LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	journal, _ := os.ReadFile(m.journalPath)
	got, err := NewFilesystem(m.Path()).Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got.State, cmpOpts); diff != "" {
		t.Errorf("replayed state (-want +got):\n%s", diff)
	}
	if got.Serial != base.Serial {
		t.Errorf("read-only replay has serial %d, want the snapshot's %d", got.Serial, base.Serial)
	}
	after, err := os.ReadFile(m.journalPath)
	if err != nil || !bytes.Equal(journal, after) {
		t.Errorf("the journal was touched (%v)", err)
	}
	disk, err := statefile.Read(mustOpen(t, m.Path()))
	if err != nil || disk.Serial != base.Serial {
		t.Errorf("the snapshot was touched: %v", err)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestJournalTornTail(t *testing.T) {
	m := newManager(t)
	_, want := applyThenCrash(t, m, 3)
	f, err := os.OpenFile(m.journalPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A record cut short by the kill, as the last line.
	if _, err := f.WriteString(`{"object":{"mode":"managed","type":"terraform_data","na`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, err := m.Read()
	if err != nil {
		t.Fatalf("Read with a torn last line: %v", err)
	}
	if diff := cmp.Diff(want, got.State, cmpOpts); diff != "" {
		t.Errorf("recovered state (-want +got):\n%s", diff)
	}
}

func TestStaleJournalRemoved(t *testing.T) {
	m := newManager(t)
	base, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(instanceAddr(5).Object(addrs.NotDeposed), testObject(5), testProvider); err != nil {
		t.Fatal(err)
	}
	journal, err := os.ReadFile(m.journalPath)
	if err != nil {
		t.Fatal(err)
	}
	final, err := rec.Close()
	if err != nil {
		t.Fatal(err)
	}
	if final.Serial != base.Serial+1 {
		t.Errorf("Close wrote serial %d, want %d", final.Serial, base.Serial+1)
	}
	if _, err := os.Stat(m.journalPath); !os.IsNotExist(err) {
		t.Fatalf("Close left the journal")
	}
	// As if the process died after the final rename, before the removal.
	if err := os.WriteFile(m.journalPath, journal, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := NewFilesystem(m.Path()).Read()
	if err != nil {
		t.Fatal(err)
	}
	if got.Serial != final.Serial {
		t.Errorf("Read after a stale journal: serial %d, want %d (nothing replayed twice)", got.Serial, final.Serial)
	}
	if diff := cmp.Diff(final.State, got.State, cmpOpts); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(m.journalPath); !os.IsNotExist(err) {
		t.Errorf("the stale journal was not removed")
	}
}

func TestJournalMismatch(t *testing.T) {
	tests := map[string]struct {
		reason  string
		edit    func(t *testing.T, m *Filesystem)
		wantErr string
	}{
		"other lineage": {
			reason: "a journal from a different state must never be replayed onto this one",
			edit: func(t *testing.T, m *Filesystem) {
				if _, err := NewFilesystem(m.Path() + ".other").Persist(stateOf(1)); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(m.Path()+".other", m.Path()); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "belongs to lineage",
		},
		"older snapshot": {
			reason:  "the state file was replaced by an older copy",
			edit:    func(t *testing.T, m *Filesystem) { rewriteSerial(t, m.Path(), 0) },
			wantErr: "older serial 0",
		},
		"snapshot gone": {
			reason: "the state file was deleted",
			edit: func(t *testing.T, m *Filesystem) {
				if err := os.Remove(m.Path()); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "there is no state snapshot",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := newManager(t)
			applyThenCrash(t, m, 3)
			tc.edit(t, m)
			journal, _ := os.ReadFile(m.journalPath)
			_, err := NewFilesystem(m.Path()).Read()
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), m.journalPath) {
				t.Fatalf("Read: got %v, want an error naming the journal and saying %q (%s)", err, tc.wantErr, tc.reason)
			}
			after, _ := os.ReadFile(m.journalPath)
			if !bytes.Equal(journal, after) {
				t.Errorf("the journal was modified")
			}
		})
	}
}

// rewriteSerial changes the serial of the snapshot at path in place.
func rewriteSerial(t *testing.T, path string, serial uint64) {
	t.Helper()
	f, err := statefile.Read(mustOpen(t, path))
	if err != nil {
		t.Fatal(err)
	}
	f.Serial = serial
	src, err := statefile.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestParseJournal(t *testing.T) {
	header := `{"format":"cairn-apply-journal","version":1,"lineage":"l","base_serial":3,"base_exists":true}` + "\n"
	record := `{"output":{"name":"o","value":1,"type":"number"}}` + "\n"
	tests := map[string]struct {
		reason      string
		src         string
		wantRecords int
		wantDropped int
		wantErr     string
		incomplete  bool
	}{
		"empty":          {reason: "created, header not yet written", src: "", incomplete: true},
		"torn header":    {reason: "killed while writing the header", src: header[:20], incomplete: true},
		"header only":    {src: header},
		"records":        {src: header + record + record, wantRecords: 2},
		"torn last line": {src: header + record + record[:10], wantRecords: 1, wantDropped: 10},
		"garbage tail":   {reason: "unacknowledged bytes may be anything", src: header + record + "\x00\x00\x00\n" + record, wantRecords: 1, wantDropped: 4 + len(record)},
		"two kinds":      {reason: "a line must be exactly one record", src: header + `{"object":null,"output":null}` + "\n", wantDropped: 30},
		"not a journal":  {src: `{"format":"other"}` + "\n", wantErr: "not a Cairn apply journal"},
		"future version": {src: `{"format":"cairn-apply-journal","version":2}` + "\n", wantErr: "unsupported journal version 2"},
		"corrupt header": {src: "{\n", wantErr: "invalid header"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j, err := parseJournal([]byte(tc.src))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := struct {
				Records, Dropped int
				Complete         bool
			}{len(j.records), j.dropped, j.complete}
			want := struct {
				Records, Dropped int
				Complete         bool
			}{tc.wantRecords, tc.wantDropped, !tc.incomplete}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("parseJournal (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	snap := &statefile.File{Lineage: "L", Serial: 5}
	tests := map[string]struct {
		snap       *statefile.File
		header     journalHeader
		incomplete bool
		want       journalStatus
		wantErr    string
	}{
		"pending":             {snap: snap, header: journalHeader{Lineage: "L", BaseSerial: 5, BaseExists: true}, want: journalPending},
		"stale":               {snap: snap, header: journalHeader{Lineage: "L", BaseSerial: 4, BaseExists: true}, want: journalStale},
		"pending, no base":    {header: journalHeader{Lineage: "L"}, want: journalPending},
		"stale, no base":      {snap: snap, header: journalHeader{Lineage: "L"}, want: journalStale},
		"incomplete header":   {snap: snap, incomplete: true, want: journalStale},
		"lineage":             {snap: snap, header: journalHeader{Lineage: "M", BaseSerial: 5, BaseExists: true}, wantErr: "lineage"},
		"newer than snapshot": {snap: snap, header: journalHeader{Lineage: "L", BaseSerial: 6, BaseExists: true}, wantErr: "older serial 5"},
		"snapshot missing":    {header: journalHeader{Lineage: "L", BaseSerial: 5, BaseExists: true}, wantErr: "no state snapshot"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := classify(tc.snap, &journal{header: tc.header, complete: !tc.incomplete})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("classify: got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestRecorderConcurrent(t *testing.T) {
	m := newManager(t)
	rec, err := m.BeginApply(nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 500
	var wg sync.WaitGroup
	for w := range 10 {
		wg.Go(func() {
			for i := w; i < n; i += 10 {
				if err := rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), testObject(i), testProvider); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if got := rec.State(); len(got.Resources) != 10 {
		t.Errorf("Recorder.State has %d resources, want 10", len(got.Resources))
	}
	final, err := rec.Close()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stateOf(n), final.State, cmpOpts); diff != "" {
		t.Errorf("final state (-want +got):\n%s", diff)
	}
	got, err := NewFilesystem(m.Path()).Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(final, got, cmpOpts); diff != "" {
		t.Errorf("state file (-want +got):\n%s", diff)
	}
	// The lock BeginApply took is released.
	unlock, err := NewFilesystem(m.Path()).Lock(t.Context(), LockInfo{}, 0)
	if err != nil {
		t.Fatalf("lock still held after Close: %v", err)
	}
	unlock()
}

func TestRecorderRules(t *testing.T) {
	m := newManager(t)
	base, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := m.Lock(t.Context(), LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	stale := *base
	stale.Serial--
	if _, err := m.BeginApply(&stale); err == nil || !strings.Contains(err.Error(), "changed since it was read") {
		t.Errorf("BeginApply on an outdated base: got %v", err)
	}
	if _, err := m.BeginApply(nil); err == nil || !strings.Contains(err.Error(), "a state exists") {
		t.Errorf("BeginApply(nil) over a state: got %v", err)
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.BeginApply(base); !errors.Is(err, errApplyOpen) {
		t.Errorf("second BeginApply: got %v", err)
	}
	if _, err := m.Read(); !errors.Is(err, errApplyOpen) {
		t.Errorf("Read during apply: got %v", err)
	}
	if _, err := m.Persist(stateOf(1)); !errors.Is(err, errApplyOpen) {
		t.Errorf("Persist during apply: got %v", err)
	}
	if err := unlock(); err == nil {
		t.Errorf("unlock during apply succeeded")
	}
	snapshot := rec.State()
	snapshot.RemoveResource(instanceAddr(0).ContainingResource())
	if rec.State().Resource(instanceAddr(0).ContainingResource()) == nil {
		t.Errorf("changing the State() copy changed the recorder's state")
	}
	final, err := rec.Close()
	if err != nil {
		t.Fatal(err)
	}
	if final.Serial != base.Serial {
		t.Errorf("an apply with no changes moved the serial to %d", final.Serial)
	}
	if err := rec.SetObject(instanceAddr(9).Object(addrs.NotDeposed), testObject(9), testProvider); !errors.Is(err, ErrRecorderClosed) {
		t.Errorf("SetObject after Close: got %v", err)
	}
	if _, err := rec.Close(); !errors.Is(err, ErrRecorderClosed) {
		t.Errorf("second Close: got %v", err)
	}
	if err := unlock(); err != nil {
		t.Errorf("unlock after Close: %v", err)
	}
}

func TestBeginApplyPersistsChangedBase(t *testing.T) {
	m := newManager(t)
	base, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	// A refresh changed the base in memory; the crash must not lose it.
	base.State.SetResourceInstanceCurrent(instanceAddr(1), testObject(42), testProvider)
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(instanceAddr(7).Object(addrs.NotDeposed), testObject(7), testProvider); err != nil {
		t.Fatal(err)
	}
	abandon(t, rec)
	got, err := NewFilesystem(m.Path()).Read()
	if err != nil {
		t.Fatal(err)
	}
	want := base.State.DeepCopy()
	want.SetResourceInstanceCurrent(instanceAddr(7), testObject(7), testProvider)
	if diff := cmp.Diff(want, got.State, cmpOpts); diff != "" {
		t.Errorf("recovered state (-want +got):\n%s", diff)
	}
}

func TestJournalFailureKeepsChanges(t *testing.T) {
	m := newManager(t)
	rec, err := m.BeginApply(nil)
	if err != nil {
		t.Fatal(err)
	}
	// The disk goes away under the journal.
	rec.journal.f.Close()
	err = rec.SetObject(instanceAddr(1).Object(addrs.NotDeposed), testObject(1), testProvider)
	if err == nil || !strings.Contains(err.Error(), m.journalPath) {
		t.Fatalf("SetObject with a broken journal: got %v, want an error naming the journal", err)
	}
	if err := rec.SetObject(instanceAddr(2).Object(addrs.NotDeposed), testObject(2), testProvider); err == nil {
		t.Errorf("a second SetObject after the journal broke succeeded; the failure must stick")
	}
	// The object exists remotely whatever the journal says: Close saves it.
	final, err := rec.Close()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stateOf(3).Resource(instanceAddr(1).ContainingResource()), final.State.Resource(instanceAddr(1).ContainingResource()), cmpOpts); diff != "" {
		t.Errorf("final state lost the object (-want +got):\n%s", diff)
	}
}

func FuzzParseJournal(f *testing.F) {
	header := `{"format":"cairn-apply-journal","version":1,"lineage":"l","base_serial":3,"base_exists":true}` + "\n"
	f.Add([]byte(header + `{"output":{"name":"o","value":1,"type":"number"}}` + "\n"))
	f.Add([]byte(header + `{"object":{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instance":{"index_key":1,"schema_version":0,"attributes":{"id":"x"}}}}` + "\n"))
	f.Add([]byte(header + `{"object":{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","removed":true,"instance":{"deposed":"0000000a"}}}` + "\n\x00\x00"))
	f.Fuzz(func(t *testing.T, src []byte) {
		j, err := parseJournal(src)
		if err != nil {
			return
		}
		j.replay(nil)
	})
}
