package pg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/states"
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

// journalHeader is row 0: the snapshot the apply started from.
type journalHeader struct {
	Format     string `json:"format"`
	Lineage    string `json:"lineage"`
	BaseSerial uint64 `json:"base_serial"`
	BaseExists bool   `json:"base_exists"`
}

const journalFormat = "cairn-pg-journal/1"

// journalRecord is one row after the header; exactly one field is set.
type journalRecord struct {
	Object *statefile.ObjectRecord `json:"object,omitempty"`
	Output *statefile.OutputRecord `json:"output,omitempty"`
}

func (r *journalRecord) apply(s *states.State) {
	switch {
	case r.Object != nil:
		r.Object.Apply(s)
	case r.Output != nil:
		r.Output.Apply(s)
	}
}

// journal is a workspace's journal rows as read.
type journal struct {
	header  journalHeader
	records []journalRecord
}

// replay is the snapshot with the records applied; serial and lineage
// are still the base's.
func (j *journal) replay(snap *statefile.File) *statefile.File {
	out := &statefile.File{TerraformVersion: statemgr.TerraformVersion, Lineage: j.header.Lineage, Serial: j.header.BaseSerial, State: states.NewState()}
	if snap != nil {
		out.State = snap.State.DeepCopy()
	}
	for i := range j.records {
		j.records[i].apply(out.State)
	}
	return out
}

// fetched is the row and journal read together from one database
// snapshot.
type fetched struct {
	snap *statefile.File
	sum  string
	// stale is set when the row is not stored as the transform would
	// write it (plaintext, or sealed by a fallback method).
	stale   bool
	journal *journal
	// damage is set when the journal rows cannot be read to their end:
	// journal then holds the records before the damage (none when the
	// header itself is unusable).
	damage *JournalDamageError
}

type journalStatus int

const (
	journalPending journalStatus = iota
	journalStale
)

// classify applies the local journal's rules (statemgr's load.go): the
// journal is pending when the row is still the apply's base, stale when
// the row moved past it, and an error when they cannot belong together.
func (f *fetched) classify() (journalStatus, error) {
	h, snap := f.journal.header, f.snap
	switch {
	case snap == nil && h.BaseExists:
		return 0, fmt.Errorf("the apply journal continues serial %d of lineage %s, but there is no state", h.BaseSerial, h.Lineage)
	case snap == nil:
		return journalPending, nil
	case snap.Lineage != h.Lineage:
		return 0, fmt.Errorf("the apply journal belongs to lineage %s, the state to lineage %s", h.Lineage, snap.Lineage)
	case !h.BaseExists, h.BaseSerial < snap.Serial:
		return journalStale, nil
	case h.BaseSerial == snap.Serial:
		return journalPending, nil
	default:
		return 0, fmt.Errorf("the apply journal continues serial %d, but the state has the older serial %d", h.BaseSerial, snap.Serial)
	}
}

// supersededBy reports whether f replaces the crashed apply the journal
// records: the errored.tfstate that apply saved when it could not reach
// the database continues the journal's lineage one serial above its base,
// and holds every record the journal does and more. Pushing it discards
// the journal, as moving it over a local state file makes the local
// journal stale.
func (f *fetched) supersededBy(next *statefile.File) bool {
	if f.journal == nil || next == nil {
		return false
	}
	h := f.journal.header
	return next.Lineage == h.Lineage && next.Serial > h.BaseSerial
}

// view is the state a reader sees: the row with a pending journal
// replayed. With the lock held (locked), no apply is running, so the
// journal is a crashed one and the view gets the serial recovery will
// write; otherwise the base serial, so that a plan made from a running
// apply's partial view never matches its final snapshot.
func (f *fetched) view(locked bool) (*statefile.File, error) {
	if f.damage != nil {
		return nil, f.damage
	}
	if f.journal == nil {
		return f.snap, nil
	}
	status, err := f.classify()
	if err != nil {
		return nil, err
	}
	if status == journalStale {
		return f.snap, nil
	}
	out := f.journal.replay(f.snap)
	if locked && len(f.journal.records) > 0 {
		out.Serial = f.journal.header.BaseSerial + 1
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
func (s *State) decodeJournal(rows []journalRow) (*journal, *JournalDamageError) {
	j := &journal{}
	damaged := func(i int, reason string) (*journal, *JournalDamageError) {
		return j, &JournalDamageError{Where: s.journalLocation(s.name), Seq: rows[i].Seq, Reason: reason, Kept: len(j.records), Unusable: len(rows) - i}
	}
	if rows[0].Seq != 0 {
		return damaged(0, "the header row is missing")
	}
	if err := json.Unmarshal([]byte(rows[0].Record), &j.header); err != nil || j.header.Format != journalFormat {
		j.header = journalHeader{}
		return damaged(0, "the header row is not a Cairn journal header")
	}
	for i, row := range rows[1:] {
		if row.Seq != int64(i+1) {
			return damaged(i+1, fmt.Sprintf("record %d found where record %d belongs", row.Seq, i+1))
		}
		rec, err := s.decodeJournalRecord(row.Record)
		if err != nil {
			return damaged(i+1, fmt.Sprintf("record %d: %s", row.Seq, err))
		}
		j.records = append(j.records, rec)
	}
	return j, nil
}

// decodeJournalRecord decodes one record row: exactly one change.
func (s *State) decodeJournalRecord(stored string) (journalRecord, error) {
	var rec journalRecord
	src, err := s.decodeRecord(stored)
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(src, &rec); err != nil {
		return rec, err
	}
	if (rec.Object == nil) == (rec.Output == nil) {
		return rec, errors.New("it holds no change, or two")
	}
	return rec, nil
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

// JournalDamageError reports journal rows that cannot be read to their
// end: a row other than the last is missing or unusable (edited by hand,
// or sealed with a key no longer configured), so records after it, which
// may have been acknowledged, would be lost by replaying only what comes
// before it. Nothing is changed when it is returned; Recover with
// acceptLoss keeps the records before the damage and moves the rows aside.
type JournalDamageError struct {
	// Where names the journal rows; Seq is the first unusable row (0:
	// the header).
	Where  string
	Seq    int64
	Reason string
	// Kept counts the readable records before the damage, Unusable the
	// rows from it on.
	Kept, Unusable int
}

func (e *JournalDamageError) Error() string {
	return fmt.Sprintf("the apply journal %s is damaged at row %d: %s; the %d records before it can be recovered, "+
		"but %d rows cannot be used, and they may record objects that exist", e.Where, e.Seq, e.Reason, e.Kept, e.Unusable)
}

// encodeRecord and decodeRecord are the one place a journal record
// becomes stored bytes and back, through the transform when one is set.
func (s *State) encodeRecord(src []byte) (string, error) {
	t := s.b.cfg.Transform
	if t == nil {
		return string(src), nil
	}
	// A transform that seals small records compactly (encryption.Target
	// does, with its key material computed once) is asked to: an apply
	// seals one record per finished instance.
	if re, ok := t.(interface{ EncryptRecord([]byte) ([]byte, error) }); ok {
		out, err := re.EncryptRecord(src)
		return string(out), err
	}
	out, err := t.Encrypt(src)
	return string(out), err
}

func (s *State) decodeRecord(stored string) ([]byte, error) {
	if t := s.b.cfg.Transform; t != nil {
		return t.Decrypt([]byte(stored))
	}
	return []byte(stored), nil
}
