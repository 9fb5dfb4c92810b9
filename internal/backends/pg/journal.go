package pg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// journalTable holds the applies in progress (or crashed): per workspace
// name, row 0 is the header naming the snapshot the apply started from
// and rows 1..n the finished objects and outputs in the order they were
// recorded, each the journal record the local backend writes
// ({"object":…} or {"output":…}, statefile's record encoding). Terraform
// reads only the states table, so it never sees these rows.
const journalTable = "cairn_journal"

func journalTableDDL(schema string) string {
	return `CREATE TABLE IF NOT EXISTS ` + schema + `.` + journalTable + ` (
		name text NOT NULL,
		seq bigint NOT NULL,
		record text NOT NULL,
		PRIMARY KEY (name, seq))`
}

const journalFormat = "cairn-pg-journal/1"

// fetched is the row and journal read together from one database
// snapshot.
type fetched struct {
	snap *statefile.File
	sum  string
	// stale is set when the row is not stored as the transform would
	// write it (plaintext, or sealed by a fallback method).
	stale   bool
	journal *applyjournal.Journal
	// damage is set when the journal rows cannot be read to their end:
	// journal then holds the records before the damage (none when the
	// header itself is unusable).
	damage *JournalDamageError
}

// classify is applyjournal.Classify of the row and the journal's header.
func (f *fetched) classify() (applyjournal.Status, error) {
	return applyjournal.Classify(f.snap, f.journal.Header)
}

// supersededBy reports whether next replaces the crashed apply the
// journal records (applyjournal.SupersededBy): the errored.tfstate that
// apply saved when it could not reach the database. Pushing it discards
// the journal, as moving it over a local state file makes the local
// journal stale.
func (f *fetched) supersededBy(next *statefile.File) bool {
	return f.journal != nil && applyjournal.SupersededBy(f.journal.Header, next)
}

// view is the state a reader sees (applyjournal.View), refused while the
// journal rows are damaged.
func (f *fetched) view(locked bool) (*statefile.File, error) {
	if f.damage != nil {
		return nil, f.damage
	}
	out, err := applyjournal.View(f.snap, f.journal, locked)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// fetch reads the row and the journal rows in one repeatable-read
// transaction, so that they agree. A row that exists but cannot be read
// (its data empty, NULL, not a state, or not decrypting) is a
// *statemgr.UnreadableError, never "no state": Terraform refuses it too
// ("error loading state: no state"), and taking it for a new workspace
// would plan every object anew and overwrite the row. Journal rows that
// cannot be read to their end are recorded in the result's damage.
func (s *State) fetch(ctx context.Context) (*fetched, error) {
	var data *string
	var found bool
	var rows []journalRow
	schema := s.b.cfg.schemaIdent()
	err := s.do(ctx, func(conn *pgx.Conn) error {
		opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
		return pgx.BeginTxFunc(ctx, conn, opts, func(tx pgx.Tx) error {
			data, found, rows = nil, false, nil
			err := tx.QueryRow(ctx, `SELECT data FROM `+schema+`.states WHERE name = $1`, s.name).Scan(&data)
			switch {
			case err == nil:
				found = true
			case !errors.Is(err, pgx.ErrNoRows):
				return err
			}
			r, err := tx.Query(ctx, `SELECT seq, record FROM `+schema+`.`+journalTable+` WHERE name = $1 ORDER BY seq`, s.name)
			if err != nil {
				return err
			}
			rows, err = pgx.CollectRows(r, pgx.RowToStructByPos[journalRow])
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.Location(), err)
	}
	out := &fetched{}
	if found {
		if data == nil {
			data = new(string)
		}
		out.sum = md5Hex(*data)
		out.stale = !s.storedCurrent(*data)
		if out.snap, err = s.decodeSnapshot(*data); err != nil {
			return nil, &statemgr.UnreadableError{Where: s.Location(), Err: err}
		}
	}
	if len(rows) > 0 {
		out.journal, out.damage = s.decodeJournal(rows)
	}
	return out, nil
}

type journalRow struct {
	Seq    int64
	Record string
}

// decodeJournal checks the rows form header 0 then records 1..n without
// a gap (a batch commits whole, so a gap means the rows were edited) and
// decodes them, up to the first row that cannot be used: the records
// before it, and the damage (nil when every row is usable).
func (s *State) decodeJournal(rows []journalRow) (*applyjournal.Journal, *JournalDamageError) {
	j := &applyjournal.Journal{}
	damaged := func(i int, reason string) (*applyjournal.Journal, *JournalDamageError) {
		// Only a hand-edited row has a negative seq; it sorts first and
		// stands where the header belongs.
		seq := uint64(max(rows[i].Seq, 0))
		return j, &JournalDamageError{Where: s.journalLocation(s.name), Seq: seq, Reason: reason, Kept: len(j.Records), Unusable: len(rows) - i, Part: "row"}
	}
	if rows[0].Seq != 0 {
		return damaged(0, "the header row is missing")
	}
	if err := json.Unmarshal([]byte(rows[0].Record), &j.Header); err != nil || j.Header.Format != journalFormat {
		j.Header = applyjournal.Header{}
		return damaged(0, "the header row is not a Cairn journal header")
	}
	for i, row := range rows[1:] {
		if row.Seq != int64(i+1) {
			return damaged(i+1, fmt.Sprintf("record %d found where record %d belongs", row.Seq, i+1))
		}
		rec, err := applyjournal.Decode([]byte(row.Record), s.b.cfg.Transform)
		if err != nil {
			return damaged(i+1, fmt.Sprintf("record %d: %s", row.Seq, err))
		}
		j.Records = append(j.Records, rec)
	}
	return j, nil
}

// StoredAt lists where the workspace's state is held: its states row and
// a crashed apply's journal rows, each when there is one. A first apply
// killed before it wrote a row leaves the whole state in the journal
// rows alone.
func (s *State) StoredAt() ([]string, error) {
	ctx := context.Background()
	var row, journal bool
	schema := s.b.cfg.schemaIdent()
	err := s.do(ctx, func(conn *pgx.Conn) error {
		return conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+schema+`.states WHERE name = $1),
			EXISTS (SELECT 1 FROM `+schema+`.`+journalTable+` WHERE name = $1)`, s.name).Scan(&row, &journal)
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.Location(), err)
	}
	var out []string
	if row {
		out = append(out, s.Location())
	}
	if journal {
		out = append(out, s.journalLocation(s.name))
	}
	return out, nil
}

// journalLocation names a journal's rows, for messages.
func (s *State) journalLocation(name string) string {
	return fmt.Sprintf("%s.%s (name %q)", unquote(s.b.cfg.schemaIdent()), journalTable, name)
}

// JournalDamageError is the damage error of pg's journal rows, whose
// message speaks of rows (Part "row"). It is an alias, so that callers
// matching it also match s3's damage: new code should match
// *applyjournal.DamageError.
type JournalDamageError = applyjournal.DamageError

// commitRows writes rows first, first+1, … of the journal. Run again
// after a lost session, it first skips the rows the lost commit may have
// written.
func (s *State) commitRows(ctx context.Context, first uint64, rows []string) error {
	schema := s.b.cfg.schemaIdent()
	retried := false
	return s.do(ctx, func(conn *pgx.Conn) error {
		from := first
		if retried {
			var last int64
			if err := conn.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM `+schema+`.`+journalTable+` WHERE name = $1`, s.name).Scan(&last); err != nil {
				return err
			}
			if uint64(last) >= from {
				from = uint64(last) + 1
			}
		}
		retried = true
		skip := from - first
		if skip >= uint64(len(rows)) {
			return nil
		}
		src := make([][]any, 0, len(rows)-int(skip))
		for i, r := range rows[skip:] {
			src = append(src, []any{s.name, int64(from) + int64(i), r})
		}
		_, err := conn.CopyFrom(ctx, pgx.Identifier{unquote(schema), journalTable}, []string{"name", "seq", "record"}, pgx.CopyFromRows(src))
		return err
	})
}
