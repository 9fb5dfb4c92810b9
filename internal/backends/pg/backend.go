package pg

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-iac/cairn/internal/backends"
)

// Backend is a database holding workspaces in Terraform's layout. Each
// StateMgr it returns has its own connection (its lock is a session
// lock); Close closes them all.
type Backend struct {
	cfg     Config
	connCfg *pgx.ConnConfig

	mu     sync.Mutex
	admin  *pgx.Conn
	states []*State
}

var _ backends.Backend = (*Backend)(nil)

// Open connects, and creates the schema, the states table and its index
// unless told to skip them, as Terraform's backend does when it is
// configured, plus Cairn's journal table (see the package doc).
func Open(ctx context.Context, cfg Config) (*Backend, error) {
	if cfg.Schema != "" {
		if err := CheckSchemaName(cfg.Schema); err != nil {
			return nil, fmt.Errorf("schema_name: %w", err)
		}
	}
	cc, err := parseConnString(cfg.ConnString)
	if err != nil {
		return nil, err
	}
	b := &Backend{cfg: cfg, connCfg: cc}
	conn, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	b.admin = conn
	if err := b.setup(ctx); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return b, nil
}

// parseConnString parses conn_str without ever repeating it in an error:
// it may hold a password.
func parseConnString(s string) (*pgx.ConnConfig, error) {
	if s == "" {
		return nil, errors.New("conn_str is not set: set it in the backend block, with -backend-config, or in PG_CONN_STR")
	}
	cc, err := pgx.ParseConfig(s)
	if err != nil {
		var pe *pgconn.ParseConfigError
		if errors.As(err, &pe) && pe.Unwrap() != nil {
			return nil, fmt.Errorf("conn_str could not be parsed: %v", pe.Unwrap())
		}
		return nil, errors.New("conn_str could not be parsed")
	}
	if cc.RuntimeParams == nil {
		cc.RuntimeParams = map[string]string{}
	}
	if cc.RuntimeParams["application_name"] == "" {
		cc.RuntimeParams["application_name"] = "cairn"
	}
	return cc, nil
}

// connect opens a new session.
func (b *Backend) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, b.connCfg.Copy())
	if err != nil {
		return nil, fmt.Errorf("connecting to PostgreSQL: %w", err)
	}
	return conn, nil
}

// setup creates what Terraform's backend creates, with its names, and
// the journal table.
func (b *Backend) setup(ctx context.Context) error {
	schema := b.cfg.schemaIdent()
	if !b.cfg.SkipSchemaCreation {
		// Like Terraform, look first: CREATE SCHEMA IF NOT EXISTS needs the
		// CREATE privilege even when the schema exists.
		var n int
		err := b.admin.QueryRow(ctx, `SELECT count(1) FROM information_schema.schemata WHERE schema_name = $1`, unquote(schema)).Scan(&n)
		if err != nil {
			return fmt.Errorf("checking schema %s: %w", schema, err)
		}
		if n == 0 {
			if _, err := b.admin.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+schema); err != nil {
				return fmt.Errorf("creating schema %s: %w", schema, err)
			}
		}
	}
	var stmts []string
	if !b.cfg.SkipTableCreation {
		stmts = append(stmts,
			`CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint`,
			`CREATE TABLE IF NOT EXISTS `+schema+`.states (
				id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY,
				name text UNIQUE,
				data text)`,
			journalTableDDL(schema))
	}
	if !b.cfg.SkipIndexCreation {
		stmts = append(stmts, `CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON `+schema+`.states (name)`)
	}
	for _, s := range stmts {
		if _, err := b.admin.Exec(ctx, s); err != nil {
			return fmt.Errorf("preparing schema %s: %w", schema, err)
		}
	}
	if b.cfg.SkipTableCreation {
		return b.checkJournalTable(ctx)
	}
	return nil
}

// checkJournalTable makes sure the journal table exists when Cairn was
// told not to create tables: without it no apply could be recorded, and
// the error should say so before any work starts.
func (b *Backend) checkJournalTable(ctx context.Context) error {
	schema := b.cfg.schemaIdent()
	var exists bool
	err := b.admin.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, schema+"."+journalTable).Scan(&exists)
	if err != nil {
		return fmt.Errorf("checking the journal table: %w", err)
	}
	if !exists {
		return fmt.Errorf("skip_table_creation is set and the journal table %s.%s, where Cairn records each finished object during an apply, does not exist; create it with:\n%s",
			unquote(schema), journalTable, journalTableDDL(schema))
	}
	return nil
}

func unquote(ident string) string { return ident[1 : len(ident)-1] }

// Workspaces lists "default" and every other workspace with a row.
func (b *Backend) Workspaces() ([]string, error) {
	ctx := context.Background()
	b.mu.Lock()
	defer b.mu.Unlock()
	rows, err := b.admin.Query(ctx, `SELECT name FROM `+b.cfg.schemaIdent()+`.states WHERE name <> $1`, backends.DefaultWorkspace)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	sort.Strings(names)
	return append([]string{backends.DefaultWorkspace}, names...), nil
}

// CreateWorkspace gives a new workspace its row, an empty state (serial
// 1, a new lineage), under the creation lock, as Terraform does.
func (b *Backend) CreateWorkspace(name string) error {
	if name == backends.DefaultWorkspace {
		return nil
	}
	ctx := context.Background()
	var exists bool
	b.mu.Lock()
	err := b.admin.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+b.cfg.schemaIdent()+`.states WHERE name = $1)`, name).Scan(&exists)
	b.mu.Unlock()
	if err != nil {
		return fmt.Errorf("creating workspace %q: %w", name, err)
	}
	if exists {
		return nil
	}
	s, err := b.state(name)
	if err != nil {
		return err
	}
	if _, err := s.persistNew(); err != nil {
		return fmt.Errorf("creating workspace %q: %w", name, err)
	}
	return nil
}

// DeleteWorkspace deletes the workspace's row and any journal rows.
func (b *Backend) DeleteWorkspace(name string) error {
	if name == backends.DefaultWorkspace || name == "" {
		return errors.New("cannot delete default state")
	}
	ctx := context.Background()
	b.mu.Lock()
	defer b.mu.Unlock()
	schema := b.cfg.schemaIdent()
	return pgx.BeginFunc(ctx, b.admin, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM `+schema+`.states WHERE name = $1`, name); err != nil {
			return fmt.Errorf("deleting workspace %q: %w", name, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM `+schema+`.`+journalTable+` WHERE name = $1`, name); err != nil {
			return fmt.Errorf("deleting workspace %q: %w", name, err)
		}
		return nil
	})
}

// StateMgr returns the manager of workspace name's row.
func (b *Backend) StateMgr(name string) (backends.StateMgr, error) {
	return b.state(name)
}

func (b *Backend) state(name string) (*State, error) {
	s := newState(b, name)
	b.mu.Lock()
	b.states = append(b.states, s)
	b.mu.Unlock()
	return s, nil
}

// Close closes every connection, which releases any lock still held.
func (b *Backend) Close() error {
	ctx := context.Background()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.states {
		s.close(ctx)
	}
	b.states = nil
	if b.admin != nil {
		b.admin.Close(ctx)
		b.admin = nil
	}
	return nil
}
