package statemgr

import (
	"bytes"
	"errors"
	"fmt"
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

			journal, _ := os.ReadFile(m.journalPath)
			snapshot, _ := os.ReadFile(m.Path())
			// A read shows the recovered state and writes nothing.
			seen, err := NewFilesystem(m.Path()).Read()
			if err != nil {
				t.Fatalf("Read after the crash: %v", err)
			}
			if diff := cmp.Diff(want, seen.State, cmpOpts); diff != "" {
				t.Errorf("state read after the crash (-want +got):\n%s", diff)
			}
			assertUnchanged(t, m.journalPath, journal)
			assertUnchanged(t, m.Path(), snapshot)

			rec, err := NewFilesystem(m.Path()).Recover(false)
			if err != nil {
				t.Fatalf("Recover: %v", err)
			}
			if rec.Damaged != "" || rec.Records == 0 {
				t.Errorf("Recover: %+v, want records folded and nothing damaged", rec)
			}
			got, err := NewFilesystem(m.Path()).Read()
			if err != nil {
				t.Fatal(err)
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
			if _, err := os.Stat(m.journalPath); !os.IsNotExist(err) {
				t.Errorf("journal still exists after recovery")
			}
		})
	}
}

// assertUnchanged fails unless the file at path still holds want (nil:
// it still does not exist).
func assertUnchanged(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if want == nil && os.IsNotExist(err) {
		return
	}
	if err != nil || !bytes.Equal(want, got) {
		t.Errorf("%s was changed (%v)", path, err)
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
	assertUnchanged(t, m.journalPath, journal)
	if _, err := NewFilesystem(m.Path()).Persist(got.State); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m.journalPath); !os.IsNotExist(err) {
		t.Errorf("the stale journal was not removed by the next write")
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

// line is record seq of a version 2 journal holding output "o" = seq.
func line(seq uint64) string {
	return string(appendFramed(nil, seq, fmt.Appendf(nil, `"output":{"name":"o","value":%d,"type":"number"}`, seq)))
}

func TestParseJournal(t *testing.T) {
	header := `{"format":"cairn-apply-journal","version":2,"lineage":"l","base_serial":3,"base_exists":true}` + "\n"
	headerV1 := `{"format":"cairn-apply-journal","version":1,"lineage":"l","base_serial":3,"base_exists":true}` + "\n"
	recordV1 := `{"output":{"name":"o","value":1,"type":"number"}}` + "\n"
	flipped := strings.Replace(line(2), `"value":2`, `"value":7`, 1)
	type result struct {
		Records, Torn int
		Complete      bool
		Damage        *journalDamage
	}
	tests := map[string]struct {
		reason  string
		src     string
		want    result
		wantErr string
	}{
		"empty":       {reason: "created, header not yet written", src: ""},
		"torn header": {reason: "killed while writing the header", src: header[:20]},
		"header only": {src: header, want: result{Complete: true}},
		"records":     {src: header + line(1) + line(2), want: result{Records: 2, Complete: true}},
		"torn last line": {
			reason: "killed in the middle of a write: never acknowledged",
			src:    header + line(1) + line(2)[:10], want: result{Records: 1, Torn: 10, Complete: true},
		},
		"torn before zero fill": {
			reason: "the preallocated tail is zeros",
			src:    header + line(1) + line(2)[:10] + "\x00\x00\x00", want: result{Records: 1, Torn: 10, Complete: true},
		},
		"garbage in the middle": {
			reason: "records after a bad line were acknowledged",
			src:    header + line(1) + "garbage\n" + line(3) + line(4),
			want: result{Records: 1, Complete: true, Damage: &journalDamage{Line: 3, Offset: len(header + line(1)), After: 2,
				Salvaged: 2, Missing: 1, Reason: "the line has no checksum"}},
		},
		"garbage last complete line": {
			reason: "a complete line was written whole, and may have been acknowledged",
			src:    header + line(1) + "\x00\x00\x00\n",
			want:   result{Records: 1, Complete: true, Damage: &journalDamage{Line: 3, Offset: len(header + line(1)), Reason: "the line has no checksum"}},
		},
		"altered value": {
			src:  header + line(1) + flipped + line(3),
			want: result{Records: 1, Complete: true, Damage: &journalDamage{Line: 3, Offset: len(header + line(1)), After: 1, Salvaged: 1, Missing: 1, Reason: "the line's checksum does not match its content"}},
		},
		"missing line": {
			src: header + line(1) + line(3),
			want: result{Records: 1, Complete: true, Damage: &journalDamage{Line: 3, Offset: len(header + line(1)), Salvaged: 1, Missing: 1,
				Reason: "record 3 found where record 2 belongs (a line is missing, repeated or out of order)"}},
		},
		"duplicated line": {
			src: header + line(1) + line(2) + line(2),
			want: result{Records: 2, Complete: true, Damage: &journalDamage{Line: 4, Offset: len(header + line(1) + line(2)),
				Reason: "record 2 found where record 3 belongs (a line is missing, repeated or out of order)"}},
		},
		"reordered lines": {
			src: header + line(2) + line(1),
			want: result{Complete: true, Damage: &journalDamage{Line: 2, Offset: len(header), After: 1, Salvaged: 2,
				Reason: "record 2 found where record 1 belongs (a line is missing, repeated or out of order)"}},
		},
		"version 1":        {reason: "a journal left by an older Cairn", src: headerV1 + recordV1 + recordV1, want: result{Records: 2, Complete: true}},
		"version 1 damage": {src: headerV1 + recordV1 + "{}\n" + recordV1, want: result{Records: 1, Complete: true, Damage: &journalDamage{Line: 3, Offset: len(headerV1 + recordV1), After: 1, Reason: "the line holds no record, or two"}}},
		"not a journal":    {src: `{"format":"other"}` + "\n", wantErr: "not a Cairn apply journal"},
		"future version":   {src: `{"format":"cairn-apply-journal","version":3}` + "\n", wantErr: "unsupported journal version 3"},
		"corrupt header":   {src: "{\n", wantErr: "invalid header"},
		"header swallows a record": {
			reason:  "damage to the header's end that makes it and the first record one valid JSON object (found by FuzzJournalDamage)",
			src:     header[:86] + "0000000000" + (line(1) + line(2))[2:],
			wantErr: "invalid header",
		},
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
			got := result{len(j.records), j.torn, j.complete, j.damage}
			if diff := cmp.Diff(tc.want, got); diff != "" {
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

// TestReadLockedAfterCrash: a run holding the lock reads a crashed apply's
// state with the serial recovery will give it, writing nothing, so that
// the apply it plans can start from it.
func TestReadLockedAfterCrash(t *testing.T) {
	m := newManager(t)
	base, want := applyThenCrash(t, m, 3)
	journal, _ := os.ReadFile(m.journalPath)
	snapshot, _ := os.ReadFile(m.Path())
	unlock, err := m.Lock(t.Context(), LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	got, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	if got.Serial != base.Serial+1 || got.Lineage != base.Lineage {
		t.Errorf("locked read after a crash: serial %d lineage %s, want %d %s", got.Serial, got.Lineage, base.Serial+1, base.Lineage)
	}
	if diff := cmp.Diff(want, got.State, cmpOpts); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	assertUnchanged(t, m.journalPath, journal)
	assertUnchanged(t, m.Path(), snapshot)
	rec, err := m.BeginApply(got)
	if err != nil {
		t.Fatalf("BeginApply from the locked read: %v", err)
	}
	final, err := rec.Close()
	if err != nil {
		t.Fatal(err)
	}
	if final.Serial != base.Serial+1 {
		t.Errorf("after folding the journal and applying nothing: serial %d, want %d", final.Serial, base.Serial+1)
	}
}
