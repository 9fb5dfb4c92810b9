package command

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/pg"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/testpg"
)

// pgsrv is the PostgreSQL server the pg tests share (one per test
// binary, a database per test or script).
var pgsrv testpg.Shared

// stopPgAfter runs the tests, then stops the shared server if one
// started.
type stopPgAfter struct{ m *testing.M }

func (s stopPgAfter) Run() int {
	code := s.m.Run()
	if err := pgsrv.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	return code
}

// TestPgScripts runs the scripts in testdata/pgscript against a real
// PostgreSQL: each script gets its own database, in PG_CONN_STR (which
// backend "pg" {} reads, as Terraform's does).
func TestPgScripts(t *testing.T) {
	pgsrv.Server(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/pgscript",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CHECKPOINT_DISABLE", "1")
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/.cache")
			url, err := pgsrv.NewDatabase()
			if err != nil {
				return err
			}
			env.Setenv("PG_CONN_STR", url)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitCode,
			"waitfile": cmdWaitFile,
			"sleep":    cmdSleep,
			"repeat":   cmdRepeat,
			"pgsql":    cmdPgSQL,
			"pgwait":   cmdPgWait,
		},
	})
}

// cmdPgSQL runs one SQL statement on $PG_CONN_STR and prints the rows it
// returns, one a line, columns separated by spaces:
//
//	pgsql 'SELECT name FROM terraform_remote_state.states ORDER BY name'
func cmdPgSQL(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: pgsql SQL")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ts.Getenv("PG_CONN_STR"))
	ts.Check(err)
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, args[0])
	if err == nil {
		var out strings.Builder
		for rows.Next() {
			vals, verr := rows.Values()
			ts.Check(verr)
			for i, v := range vals {
				if i > 0 {
					out.WriteByte(' ')
				}
				fmt.Fprint(&out, v)
			}
			out.WriteByte('\n')
		}
		rows.Close()
		err = rows.Err()
		ts.Stdout().Write([]byte(out.String()))
	}
	if (err != nil) != neg {
		ts.Fatalf("pgsql: %v", err)
	}
}

// cmdPgWait runs a query on $PG_CONN_STR every 20 ms until it returns a
// row, for up to 60 seconds: a script waits for another process to reach
// a point the database shows.
//
//	pgwait 'SELECT 1 FROM terraform_remote_state.cairn_journal'
func cmdPgWait(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: pgwait SQL")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ts.Getenv("PG_CONN_STR"))
	ts.Check(err)
	defer conn.Close(ctx)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		rows, err := conn.Query(ctx, args[0])
		ts.Check(err)
		found := rows.Next()
		rows.Close()
		if found {
			return
		}
	}
	ts.Fatalf("pgwait: no row from %s within a minute", args[0])
}

// pgHoldLock takes the lock of workspace args[1] of the pg backend at
// $PG_CONN_STR, writes a "locked" file, and holds the lock for the
// duration args[2].
func pgHoldLock() {
	d, err := time.ParseDuration(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	b, err := pg.Open(ctx, pg.Config{ConnString: os.Getenv("PG_CONN_STR")})
	holdBackendLock(ctx, b, err, os.Args[1], d)
}

// holdBackendLock takes the lock of workspace ws of b, which the caller
// opened with err, writes a "locked" file, and holds the lock for d:
// another run holding it. It exits 1 when b cannot be opened or locked.
func holdBackendLock(ctx context.Context, b backends.Backend, err error, ws string, d time.Duration) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer b.Close()
	mgr, err := b.StateMgr(ws)
	var unlock func() error
	if err == nil {
		unlock, err = mgr.Lock(ctx, statemgr.LockInfo{Operation: "OperationTypeApply", Who: "holder@test"}, 0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.WriteFile("locked", nil, 0o600)
	time.Sleep(d)
	unlock()
}
