package pg

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

func TestCheckSchemaName(t *testing.T) {
	for name, tc := range map[string]struct {
		schema string
		ok     bool
	}{
		"default":       {DefaultSchema, true},
		"mixed case":    {"Team_State", true},
		"dollar":        {"s$1", true},
		"leading digit": {"1abc", false},
		"quote":         {`a"b`, false},
		"dot":           {"a.b", false},
		"injection":     {"x; DROP TABLE y", false},
		"empty":         {"", false},
		"too long":      {strings.Repeat("a", 64), false},
	} {
		t.Run(name, func(t *testing.T) {
			if err := CheckSchemaName(tc.schema); (err == nil) != tc.ok {
				t.Errorf("CheckSchemaName(%q) = %v, want ok=%v", tc.schema, err, tc.ok)
			}
		})
	}
}

// TestLayoutIsTerraforms checks Open creates Terraform 1.5.7's objects
// with its names and types, and the journal table beside them.
func TestLayoutIsTerraforms(t *testing.T) {
	url := srv.Database(t)
	openBackend(t, url, Config{Schema: "Team"})
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `SELECT column_name || ' ' || data_type || ' ' || coalesce(column_default, '-')
		FROM information_schema.columns WHERE table_schema = 'team' AND table_name = 'states' ORDER BY ordinal_position`)
	cols, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"id bigint nextval('global_states_id_seq'::regclass)", "name text -", "data text -"}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("states columns (-want +got):\n%s", diff)
	}
	rows, _ = conn.Query(ctx, `SELECT indexname FROM pg_indexes WHERE schemaname = 'team' ORDER BY indexname`)
	idx, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"cairn_journal_pkey", "states_by_name", "states_name_key", "states_pkey"}, idx); diff != "" {
		t.Errorf("indexes (-want +got):\n%s", diff)
	}
	var seq int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_sequences WHERE schemaname = 'public' AND sequencename = 'global_states_id_seq'`).Scan(&seq); err != nil || seq != 1 {
		t.Errorf("public.global_states_id_seq: %d, %v", seq, err)
	}
}

// TestLockExcludesOtherSessions: a second client cannot take a locked
// workspace, waits with a timeout, and gets it once the holder unlocks;
// a new workspace's creation lock (-1) excludes too.
func TestLockExcludesOtherSessions(t *testing.T) {
	url := srv.Database(t)
	a, b := openBackend(t, url, Config{}), openBackend(t, url, Config{})
	ctx := context.Background()
	for _, ws := range []string{"default", "other"} {
		t.Run(ws, func(t *testing.T) {
			sa, sb := stateOf(t, a, ws), stateOf(t, b, ws)
			unlock, err := sa.Lock(ctx, statemgr.LockInfo{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, err = sb.Lock(ctx, statemgr.LockInfo{}, 0)
			var le *statemgr.LockError
			if !errors.As(err, &le) || !le.Contended() || le.Holder == nil {
				t.Fatalf("second Lock = %v, want a contended *LockError naming the holder", err)
			}
			if _, err := sb.Persist(states.NewState()); !errors.As(err, &le) {
				t.Fatalf("Persist without the lock = %v, want a *LockError", err)
			}
			got := make(chan error)
			go func() {
				unlockB, err := sb.Lock(ctx, statemgr.LockInfo{}, 60e9)
				if err == nil {
					err = unlockB()
				}
				got <- err
			}()
			if err := unlock(); err != nil {
				t.Fatal(err)
			}
			if err := <-got; err != nil {
				t.Fatalf("waiting Lock = %v", err)
			}
		})
	}
}

// TestApplyGroupCommits records objects from many goroutines; every one
// is in the state after Close, in one new serial, and the journal rows
// are gone.
func TestApplyGroupCommits(t *testing.T) {
	url := srv.Database(t)
	s := stateOf(t, openBackend(t, url, Config{}), "default")
	base, err := s.Persist(states.NewState())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	backendtest.RecordAll(t, n, func(i int) error {
		return rec.SetObject(backendtest.ObjectAddr(i), backendtest.Object(i), backendtest.Provider)
	})
	out, err := rec.Close()
	if err != nil {
		t.Fatal(err)
	}
	if out.Serial != base.Serial+1 || backendtest.CountInstances(out.State) != n {
		t.Fatalf("Close wrote serial %d with %d instances, want serial %d with %d", out.Serial, backendtest.CountInstances(out.State), base.Serial+1, n)
	}
	if rows := journalRows(t, url); rows != 0 {
		t.Fatalf("%d journal rows after Close", rows)
	}
}

// TestCrashedApplyIsRecovered abandons an apply (its sessions end, as
// when the process dies): another client reads the recorded objects
// without writing, and its first write folds them in, one serial up.
func TestCrashedApplyIsRecovered(t *testing.T) {
	url := srv.Database(t)
	crashed := openBackend(t, url, Config{})
	s := stateOf(t, crashed, "default")
	base, _ := backendtest.ApplyRecorded(t, s, 0, 5)
	crashed.Close() // the server releases the lock with the session

	next := stateOf(t, openBackend(t, url, Config{}), "default")
	f, err := next.Read()
	if err != nil {
		t.Fatal(err)
	}
	if backendtest.CountInstances(f.State) != 5 || f.Serial != base.Serial {
		t.Fatalf("Read after the crash: %d instances at serial %d, want 5 at the base serial %d", backendtest.CountInstances(f.State), f.Serial, base.Serial)
	}
	if rows := journalRows(t, url); rows != 6 {
		t.Fatalf("Read changed the journal: %d rows, want 6", rows)
	}
	r, err := next.Recover(false)
	if err != nil || r.Records != 5 {
		t.Fatalf("Recover = %+v, %v; want 5 records", r, err)
	}
	f, err = next.Read()
	if err != nil || f.Serial != base.Serial+1 || backendtest.CountInstances(f.State) != 5 || f.Lineage != base.Lineage {
		t.Fatalf("after Recover: %+v, %v", f, err)
	}
	if rows := journalRows(t, url); rows != 0 {
		t.Fatalf("%d journal rows after Recover", rows)
	}
}

// TestPushSupersedesJournal: the errored.tfstate a run saved when the
// database stayed down continues the journal's lineage one serial up, so
// pushing it replaces the journal rather than conflicting with it.
func TestPushSupersedesJournal(t *testing.T) {
	url := srv.Database(t)
	crashed := openBackend(t, url, Config{})
	s := stateOf(t, crashed, "default")
	base, rec := backendtest.ApplyRecorded(t, s, 0, 3)
	// Two more objects that never reached the journal are in the snapshot.
	errored := rec.Snapshot()
	for i := 3; i < 5; i++ {
		errored.State.SetResourceInstanceCurrent(backendtest.ObjectAddr(i).ResourceInstance, backendtest.Object(i), backendtest.Provider)
	}
	crashed.Close()

	next := stateOf(t, openBackend(t, url, Config{}), "default")
	if err := next.Import(errored, false); err != nil {
		t.Fatalf("pushing the errored state: %v", err)
	}
	f, err := next.Read()
	if err != nil || backendtest.CountInstances(f.State) != 5 || f.Serial != base.Serial+1 {
		t.Fatalf("after push: %+v, %v", f, err)
	}
	if rows := journalRows(t, url); rows != 0 {
		t.Fatalf("%d journal rows after the push", rows)
	}
}

// reverseTransform stands in for encryption: stored bytes are base64, so
// a test can tell they went through it.
type reverseTransform struct{}

func (reverseTransform) Encrypt(p []byte) ([]byte, error) {
	return []byte(base64.StdEncoding.EncodeToString(p)), nil
}

func (reverseTransform) Decrypt(s []byte) ([]byte, error) {
	return base64.StdEncoding.DecodeString(string(s))
}

// TestTransformAppliesToEveryStoredByte: snapshots and journal records
// go through the transform; nothing stored is plain JSON.
func TestTransformAppliesToEveryStoredByte(t *testing.T) {
	url := srv.Database(t)
	s := stateOf(t, openBackend(t, url, Config{Transform: reverseTransform{}}), "default")
	base, err := s.Persist(states.NewState())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(backendtest.ObjectAddr(1), backendtest.Object(1), backendtest.Provider); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var record string
	if err := conn.QueryRow(ctx, `SELECT record FROM terraform_remote_state.cairn_journal WHERE seq = 1`).Scan(&record); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains([]byte(record), []byte("terraform_data")) {
		t.Errorf("journal record stored in the clear: %s", record)
	}
	if _, err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	var data string
	if err := conn.QueryRow(ctx, `SELECT data FROM terraform_remote_state.states`).Scan(&data); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(data, "terraform_data") {
		t.Errorf("state stored in the clear")
	}
	f, err := s.Read()
	if err != nil || backendtest.CountInstances(f.State) != 1 {
		t.Fatalf("Read through the transform: %+v, %v", f, err)
	}
}

func journalRows(t *testing.T, url string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM terraform_remote_state.cairn_journal`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOpenErrorsHideThePassword: neither a malformed conn_str nor an
// unreachable server puts the password in the error.
func TestOpenErrorsHideThePassword(t *testing.T) {
	for name, conn := range map[string]string{
		"bad port":    "postgres://user:hunter2@127.0.0.1:notaport/db",
		"bad keyword": "host=127.0.0.1 password=hunter2 port=x",
		"unreachable": "postgres://user:hunter2@127.0.0.1:1/db?connect_timeout=2",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Open(context.Background(), Config{ConnString: conn})
			if err == nil {
				t.Fatal("Open succeeded")
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error quotes the password: %v", err)
			}
		})
	}
}

// TestSessionLostMidApply ends the applying session between two records:
// the run reconnects and takes its lock back, unless another client took
// the lock in between; then it writes nothing more, and Close reports
// that changes exist only in memory (NotDurableError), so the caller
// saves them elsewhere.
func TestSessionLostMidApply(t *testing.T) {
	for name, tc := range map[string]struct {
		otherTakesLock bool
		wantDurable    bool
	}{
		"reconnects":                 {wantDurable: true},
		"lock taken in the meantime": {otherTakesLock: true},
	} {
		t.Run(name, func(t *testing.T) {
			url := srv.Database(t)
			s := stateOf(t, openBackend(t, url, Config{RetryFor: 5e9}), "default")
			base, err := s.Persist(states.NewState())
			if err != nil {
				t.Fatal(err)
			}
			unlock, err := s.Lock(context.Background(), statemgr.LockInfo{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			rec, err := s.BeginApply(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := rec.SetObject(backendtest.ObjectAddr(0), backendtest.Object(0), backendtest.Provider); err != nil {
				t.Fatal(err)
			}
			terminate(t, url, s.conn.PgConn().PID())
			if tc.otherTakesLock {
				other := stateOf(t, openBackend(t, url, Config{}), "default")
				if _, err := other.Lock(context.Background(), statemgr.LockInfo{}, 0); err != nil {
					t.Fatal(err)
				}
			}
			err = rec.SetObject(backendtest.ObjectAddr(1), backendtest.Object(1), backendtest.Provider)
			if (err == nil) != tc.wantDurable {
				t.Fatalf("SetObject after the session ended = %v, want durable=%v", err, tc.wantDurable)
			}
			out, err := rec.Close()
			var nd *statemgr.NotDurableError
			switch {
			case tc.wantDurable && (err != nil || backendtest.CountInstances(out.State) != 2):
				t.Fatalf("Close = %v, %v; want both objects saved", out, err)
			case !tc.wantDurable && !errors.As(err, &nd):
				t.Fatalf("Close = %v, want a NotDurableError", err)
			case !tc.wantDurable && backendtest.CountInstances(rec.Snapshot().State) != 2:
				t.Fatal("Snapshot lost an object")
			}
			if !tc.wantDurable {
				f, err := stateOf(t, openBackend(t, url, Config{}), "default").Read()
				if err != nil || f.Serial != base.Serial || backendtest.CountInstances(f.State) != 1 {
					t.Fatalf("after losing the lock the run still wrote: %+v, %v", f, err)
				}
			}
		})
	}
}

func terminate(t *testing.T, url string, pid uint32) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, int32(pid)).Scan(&ok); err != nil || !ok {
		t.Fatalf("terminating session %d: %v %v", pid, ok, err)
	}
}

// TestSkipTableCreationNeedsTheJournalTable: with skip_table_creation,
// Open checks the journal table exists and says how to create it.
func TestSkipTableCreationNeedsTheJournalTable(t *testing.T) {
	url := srv.Database(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`CREATE SCHEMA terraform_remote_state`,
		`CREATE SEQUENCE public.global_states_id_seq AS bigint`,
		`CREATE TABLE terraform_remote_state.states (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Open(ctx, Config{ConnString: url, SkipTableCreation: true})
	if err == nil || !strings.Contains(err.Error(), "CREATE TABLE IF NOT EXISTS \"terraform_remote_state\".cairn_journal") {
		t.Fatalf("Open without the journal table = %v, want the statement that creates it", err)
	}
	if _, err := conn.Exec(ctx, journalTableDDL(`"terraform_remote_state"`)); err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, Config{ConnString: url, SkipTableCreation: true})
	if err != nil {
		t.Fatalf("Open with the journal table = %v", err)
	}
	b.Close()
}

// TestLockAlongside: a run that holds one workspace's lock can lock a
// workspace of another schema in the same database although both need
// Terraform's creation lock (the source has only journal rows, from a
// first apply that was killed; the destination has no row), which Lock
// refuses with the run's own session as holder. The borrowed lock still
// keeps every other session out, writes go through, and each side gives
// its lock back.
func TestLockAlongside(t *testing.T) {
	url := srv.Database(t)
	ctx := context.Background()
	crashed := stateOf(t, openBackend(t, url, Config{Schema: "src"}), "default")
	rec, err := crashed.BeginApply(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(backendtest.ObjectAddr(1), backendtest.Object(1), backendtest.Provider); err != nil {
		t.Fatal(err)
	}
	crashed.close(ctx) // killed: the journal rows stay, no states row

	src := stateOf(t, openBackend(t, url, Config{Schema: "src"}), "default")
	dst := stateOf(t, openBackend(t, url, Config{Schema: "dst"}), "default")
	unlockSrc, err := src.Lock(ctx, statemgr.LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dst.Lock(ctx, statemgr.LockInfo{}, 0); !errors.Is(err, statemgr.ErrLocked) {
		t.Fatalf("Lock of the destination = %v; want the conflict LockAlongside avoids", err)
	}
	unlockDst, err := dst.LockAlongside(ctx, statemgr.LockInfo{}, 0, src)
	if err != nil {
		t.Fatalf("LockAlongside = %v", err)
	}
	f, err := src.Read()
	if err != nil || backendtest.CountInstances(f.State) != 1 {
		t.Fatalf("source Read = %v, %v", f, err)
	}
	if err := dst.Import(f, true); err != nil {
		t.Fatalf("Import under the borrowed lock = %v", err)
	}
	other := stateOf(t, openBackend(t, url, Config{Schema: "dst"}), "default")
	if _, err := other.Lock(ctx, statemgr.LockInfo{}, 0); !errors.Is(err, statemgr.ErrLocked) {
		t.Fatalf("another session's Lock of the destination = %v; want it refused", err)
	}
	if _, err := dst.BeginApply(f); err == nil {
		t.Fatal("BeginApply under a borrowed lock succeeded")
	}
	if err := unlockDst(); err != nil {
		t.Fatal(err)
	}
	if _, err := dst.Persist(states.NewState()); !errors.Is(err, statemgr.ErrLocked) {
		t.Fatalf("Persist after giving the borrowed lock back = %v; want a lock error", err)
	}
	if err := unlockSrc(); err != nil {
		t.Fatal(err)
	}
	unlock, err := other.Lock(ctx, statemgr.LockInfo{}, 0)
	if err != nil {
		t.Fatalf("Lock after both released = %v", err)
	}
	got, err := other.Read()
	if err != nil || backendtest.CountInstances(got.State) != 1 || got.Lineage != f.Lineage {
		t.Fatalf("destination after the copy: %+v, %v", got, err)
	}
	unlock()
}

// TestLockAlongsideOnlyWhereCovered: where the held lock does not cover
// the workspace (the source holds its own row's lock), LockAlongside
// locks as Lock does; and it borrows the same row's lock (one database
// reached through two backends).
func TestLockAlongsideOnlyWhereCovered(t *testing.T) {
	url := srv.Database(t)
	ctx := context.Background()
	src := stateOf(t, openBackend(t, url, Config{Schema: "src"}), "default")
	if _, err := src.Persist(states.NewState()); err != nil {
		t.Fatal(err)
	}
	unlockSrc, err := src.Lock(ctx, statemgr.LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlockSrc()
	dst := stateOf(t, openBackend(t, url, Config{Schema: "dst"}), "default")
	unlock, err := dst.LockAlongside(ctx, statemgr.LockInfo{}, 0, src)
	if err != nil || dst.borrowedLock() {
		t.Fatalf("LockAlongside = %v, borrowed %v; want the destination's own lock", err, dst.borrowedLock())
	}
	unlock()
	same := stateOf(t, openBackend(t, url, Config{Schema: "src"}), "default")
	unlock, err = same.LockAlongside(ctx, statemgr.LockInfo{}, 0, src)
	if err != nil || !same.borrowedLock() {
		t.Fatalf("LockAlongside of the same row = %v, borrowed %v; want it borrowed", err, same.borrowedLock())
	}
	unlock()
}
