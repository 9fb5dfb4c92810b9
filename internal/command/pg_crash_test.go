//go:build unix

package command

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/pg"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/testpg"
)

// pgCrashConfig is crashConfig on backend "pg" (PG_CONN_STR).
const pgCrashConfig = `
terraform {
  backend "pg" {}
}
` + crashConfig

// pgWorkDir writes the configuration into a new directory and points
// PG_CONN_STR at url for the cairn processes the test starts.
func pgWorkDir(t *testing.T, url string) string {
	t.Helper()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(pgCrashConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PG_CONN_STR", url)
	runCairn(t, work, 0, "init", "-input=false")
	return work
}

// TestPgCrashMidApply SIGKILLs a cairn apply on pg: every instance it
// reported created is in the journal rows (and the state a read-only
// command sees), and the next apply finishes the job with nothing left to
// change and no journal rows left behind.
func TestPgCrashMidApply(t *testing.T) {
	url := pgsrv.Database(t)
	work := pgWorkDir(t, url)
	nVar := fmt.Sprintf("-var=n=%d", crashInstances)
	done := killAfter(t, work, "Creation complete", crashInstances/3, "apply", "-auto-approve", nVar)
	if n := pgJournalRows(t, url); n == 0 {
		t.Fatal("no journal rows after the kill")
	}
	runCairn(t, work, 0, "state", "list")
	checkPgState(t, url, done)
	runCairn(t, work, 0, "apply", "-auto-approve", nVar)
	runCairn(t, work, 0, "plan", "-detailed-exitcode", nVar)
	if n := pgJournalRows(t, url); n != 0 {
		t.Fatalf("%d journal rows left after a finished apply", n)
	}
}

// TestPgMigrateAfterCrashedFirstApply: the first apply on a new pg
// backend is killed, so the workspace has journal rows and no states row;
// init -migrate-state to another schema of the same database copies every
// instance it reported, and names the journal rows as what the previous
// schema still holds. Both sides need Terraform's creation lock, which
// the run's two sessions cannot both hold: init refused with "locked by
// another run", naming its own session.
func TestPgMigrateAfterCrashedFirstApply(t *testing.T) {
	url := pgsrv.Database(t)
	work := pgWorkDir(t, url)
	nVar := fmt.Sprintf("-var=n=%d", crashInstances)
	done := killAfter(t, work, "Creation complete", crashInstances/3, "apply", "-auto-approve", nVar)
	if rows, journal := pgStatesRows(t, url, "terraform_remote_state"), pgJournalRows(t, url); rows != 0 || journal == 0 {
		t.Fatalf("after the kill: %d states rows and %d journal rows, want none and some", rows, journal)
	}
	moved := strings.Replace(pgCrashConfig, `backend "pg" {}`, `backend "pg" {
    schema_name = "moved"
  }`, 1)
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(moved), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("cairn", "-no-color", "init", "-migrate-state", "-force-copy", "-input=false")
	cmd.Dir = work
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("init -migrate-state: %v\n%s", err, out)
	}
	// The whole state was in the journal rows: they are what is left
	// behind, not a states row that does not exist.
	if want := "\n  terraform_remote_state.cairn_journal (name \"default\")\n"; !strings.Contains(string(out), want) || strings.Contains(string(out), "terraform_remote_state.states") {
		t.Errorf("init does not name the journal rows alone as left behind (%q):\n%s", want, out)
	}
	b, err := pg.Open(context.Background(), pg.Config{ConnString: url, Schema: "moved"})
	checkInstances(t, readDefaultState(t, "reading the migrated state", b, err).State, done)
	runCairn(t, work, 0, "apply", "-auto-approve", nVar)
	runCairn(t, work, 0, "plan", "-detailed-exitcode", nVar)
}

// pgStatesRows counts the states rows in schema.
func pgStatesRows(t *testing.T, url, schema string) int {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+schema+`.states`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPgConnectionKilledMidApply ends the apply's database sessions
// (pg_terminate_backend) in the middle: the run reconnects, takes its
// lock back and finishes, losing nothing.
func TestPgConnectionKilledMidApply(t *testing.T) {
	url := pgsrv.Database(t)
	work := pgWorkDir(t, url)
	nVar := fmt.Sprintf("-var=n=%d", crashInstances)
	code, done, stderr := runAfter(t, work, "Creation complete", crashInstances/3, func() {
		if n := terminateCairnSessions(t, url); n == 0 {
			t.Error("no cairn session to terminate")
		}
	}, "apply", "-auto-approve", nVar)
	if code != 0 {
		t.Fatalf("apply exited %d after its connection was killed:\n%s", code, stderr)
	}
	if len(done) != crashInstances {
		t.Fatalf("apply reported %d instances created, want %d", len(done), crashInstances)
	}
	checkPgState(t, url, done)
	runCairn(t, work, 0, "plan", "-detailed-exitcode", nVar)
}

// TestPgConnectionLostForGood stops the database in the middle of an
// apply and keeps it down: the run stops starting operations, saves
// every finished instance to errored.tfstate and says how to push it;
// once the database is back, pushing it loses nothing.
func TestPgConnectionLostForGood(t *testing.T) {
	srv, err := testpg.Start()
	if err != nil {
		t.Skipf("testpg: %v", err)
	}
	t.Cleanup(func() { srv.Stop() })
	url, err := srv.CreateDatabase(context.Background(), "lost")
	if err != nil {
		t.Fatal(err)
	}
	work := pgWorkDir(t, url)
	t.Setenv(pgRetryEnv, "1s")
	// Three times the usual count, halted after the first 100: stopping
	// the server takes a while on a loaded machine, and the apply must
	// still be running when it is down.
	nVar := fmt.Sprintf("-var=n=%d", 3*crashInstances)
	code, done, stderr := runAfter(t, work, "Creation complete", 100, func() {
		if err := srv.Halt(); err != nil {
			t.Error(err)
		}
	}, "apply", "-auto-approve", nVar)
	if code == 0 {
		t.Fatal("apply succeeded with the database down")
	}
	for _, want := range []string{"errored.tfstate", "cairn state push errored.tfstate", "stored in PostgreSQL"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not mention %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "disk space") {
		t.Errorf("the advice for a database outage speaks of disk space:\n%s", stderr)
	}
	src, err := os.ReadFile(filepath.Join(work, erroredStateFile))
	if err != nil {
		t.Fatal(err)
	}
	errored, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInstances(t, errored.State, done)
	if err := srv.Resume(); err != nil {
		t.Fatal(err)
	}
	runCairn(t, work, 0, "state", "push", erroredStateFile)
	checkPgState(t, url, done)
	runCairn(t, work, 0, "apply", "-auto-approve", nVar)
	runCairn(t, work, 0, "plan", "-detailed-exitcode", nVar)
}

// runAfter runs cairn with args in dir, calls hook once want has been
// reported for count instances, and returns the exit code, every instance
// reported and stderr.
func runAfter(t *testing.T, dir, want string, count int, hook func(), args ...string) (int, map[string]bool, string) {
	t.Helper()
	cmd := exec.Command("cairn", append([]string{"-no-color"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		addr, rest, ok := strings.Cut(sc.Text(), ": ")
		if !ok || !strings.HasPrefix(rest, want) {
			continue
		}
		done[addr] = true
		if len(done) == count {
			hook()
		}
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if len(done) < count {
		t.Fatalf("cairn %v reported %d instances, fewer than %d:\n%s", args, len(done), count, stderr.String())
	}
	return code, done, stderr.String()
}

// terminateCairnSessions ends every session Cairn has open on the
// database and returns how many there were.
func terminateCairnSessions(t *testing.T, url string) int {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	err = conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name LIKE 'cairn%' AND pid <> pg_backend_pid() AND datname = current_database()`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// pgJournalRows counts the journal rows in the database.
func pgJournalRows(t *testing.T, url string) int {
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

// checkPgState reads the default workspace's state through the pg
// backend (replaying any journal) and checks every reported instance is
// in it.
func checkPgState(t *testing.T, url string, done map[string]bool) {
	t.Helper()
	b, err := pg.Open(context.Background(), pg.Config{ConnString: url})
	checkInstances(t, readDefaultState(t, "reading the state", b, err).State, done)
}

// readDefaultState reads the default workspace's state through b (any
// journal replayed), which the caller opened with err, and closes b when
// the test ends; what names the read in a failure, which a missing state
// is too.
func readDefaultState(t *testing.T, what string, b backends.Backend, err error) *statefile.File {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	mgr, err := b.StateMgr(defaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	f, err := mgr.Read()
	if err != nil || f == nil {
		t.Fatalf("%s: %v, %v", what, f, err)
	}
	return f
}

// checkInstances checks every instance in done is in st.
func checkInstances(t *testing.T, st *states.State, done map[string]bool) {
	t.Helper()
	seen := map[string]bool{}
	st.AllInstances(func(a addrs.AbsResourceInstance, _ *states.Resource, is *states.ResourceInstance) {
		if is.Current != nil {
			seen[a.String()] = true
		}
	})
	var missing []string
	for addr := range done {
		if !seen[addr] {
			missing = append(missing, addr)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("%d instances reported created are missing from the state, e.g. %v", len(missing), missing[:min(5, len(missing))])
	}
}
