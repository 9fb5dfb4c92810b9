package pg

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// execSQL runs one statement on the test database, as a user editing
// the tables by hand would.
func execSQL(t *testing.T, url, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		t.Fatal(err)
	}
}

// TestUnreadableRowIsNeverNoState: a row whose data is empty, NULL, not
// a state or not decrypting is an error for every reader and writer
// (Terraform refuses it too: "error loading state: no state"), never a
// new workspace that a plan would fill anew and an apply overwrite; only
// a forced push replaces it.
func TestUnreadableRowIsNeverNoState(t *testing.T) {
	for name, tc := range map[string]struct {
		data any
	}{
		"empty":     {""},
		"null":      {nil},
		"not state": {`{"hello": 1}`},
		"bad bytes": {"%%%"},
	} {
		t.Run(name, func(t *testing.T) {
			url := srv.Database(t)
			s := stateOf(t, openBackend(t, url, Config{Transform: reverseTransform{}}), "default")
			base, err := s.Persist(states.NewState())
			if err != nil {
				t.Fatal(err)
			}
			execSQL(t, url, `UPDATE terraform_remote_state.states SET data = $1 WHERE name = 'default'`, tc.data)
			var ue *statemgr.UnreadableError
			if f, err := s.Read(); !errors.As(err, &ue) {
				t.Fatalf("Read = %v, %v; want an UnreadableError", f, err)
			}
			st := states.NewState()
			st.SetResourceInstanceCurrent(backendtest.ObjectAddr(1).ResourceInstance, backendtest.Object(1), backendtest.Provider)
			if _, err := s.Persist(st); !errors.As(err, &ue) {
				t.Fatalf("Persist = %v; want an UnreadableError", err)
			}
			if _, err := s.BeginApply(base); err == nil {
				t.Fatal("BeginApply over an unreadable row succeeded")
			}
			push := &statefile.File{Lineage: base.Lineage, Serial: base.Serial + 1, State: st}
			if err := s.Import(push, false); !errors.As(err, &ue) {
				t.Fatalf("Import without force = %v; want an UnreadableError", err)
			}
			if err := s.Import(push, true); err != nil {
				t.Fatalf("Import with force: %v", err)
			}
			f, err := s.Read()
			if err != nil || backendtest.CountInstances(f.State) != 1 || f.Lineage != base.Lineage {
				t.Fatalf("after the forced push: %+v, %v", f, err)
			}
		})
	}
}

// TestDiscardDamagedJournal: journal rows that are valid JSON but not a
// valid record block every command, Recover without acceptLoss included;
// with it, the records before the damage are folded in and every row is
// moved aside (kept, under another name), so the workspace is usable
// again without SQL.
func TestDiscardDamagedJournal(t *testing.T) {
	for name, tc := range map[string]struct {
		seq        int
		record     string
		wantKept   int
		wantUnused int
	}{
		"record holds nothing": {seq: 3, record: `{"hello":"world"}`, wantKept: 2, wantUnused: 3},
		"record not an object": {seq: 2, record: `{"object":42}`, wantKept: 1, wantUnused: 4},
		"header not a header":  {seq: 0, record: `{"format":"something else"}`, wantKept: 0, wantUnused: 6},
	} {
		t.Run(name, func(t *testing.T) {
			url := srv.Database(t)
			crashed := openBackend(t, url, Config{})
			s := stateOf(t, crashed, "default")
			base, err := s.Persist(states.NewState())
			if err != nil {
				t.Fatal(err)
			}
			rec, err := s.BeginApply(base)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				if err := rec.SetObject(backendtest.ObjectAddr(i), backendtest.Object(i), backendtest.Provider); err != nil {
					t.Fatal(err)
				}
			}
			crashed.Close()
			execSQL(t, url, `UPDATE terraform_remote_state.cairn_journal SET record = $1 WHERE seq = $2`, tc.record, tc.seq)

			next := stateOf(t, openBackend(t, url, Config{}), "default")
			var de *JournalDamageError
			if _, err := next.Read(); !errors.As(err, &de) {
				t.Fatalf("Read = %v; want a JournalDamageError", err)
			}
			if _, err := next.Recover(false); !errors.As(err, &de) {
				t.Fatalf("Recover(false) = %v; want a JournalDamageError", err)
			}
			if de.Kept != tc.wantKept || de.Unusable != tc.wantUnused {
				t.Errorf("damage: %d kept, %d unusable; want %d, %d", de.Kept, de.Unusable, tc.wantKept, tc.wantUnused)
			}
			r, err := next.Recover(true)
			if err != nil {
				t.Fatalf("Recover(true): %v", err)
			}
			if r.Records != tc.wantKept || r.Damaged == "" {
				t.Errorf("Recover(true) = %+v; want %d records and where the rows went", r, tc.wantKept)
			}
			f, err := next.Read()
			if err != nil || backendtest.CountInstances(f.State) != tc.wantKept {
				t.Fatalf("after discarding: %+v, %v; want %d instances", f, err, tc.wantKept)
			}
			if rows := journalRows(t, url); rows != 6 {
				t.Errorf("%d journal rows kept aside, want all 6", rows)
			}
			if _, err := next.Persist(f.State); err != nil {
				t.Fatalf("writing after discarding: %v", err)
			}
		})
	}
}
