package statemgr

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// mutation is one kind of damage FuzzJournalDamage does to a journal.
type mutation int

const (
	flipByte mutation = iota
	truncate
	deleteLine
	duplicateLine
	swapLines
	insertBytes
	overwriteBytes
	mutations
)

// damage applies mutation op to the journal src (whose record lines start
// at the offsets in starts), at position pos, with extra bytes arg.
func damage(src []byte, starts []int, op mutation, pos int, arg []byte) []byte {
	out := bytes.Clone(src)
	lineAt := func(k int) []byte {
		end := len(src)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		return src[starts[k]:end]
	}
	k := pos % len(starts)
	switch op {
	case flipByte:
		b := byte(0xff)
		if len(arg) > 0 && arg[0] != 0 {
			b = arg[0]
		}
		out[pos%len(out)] ^= b
	case truncate:
		out = out[:pos%len(out)]
	case deleteLine:
		out = append(bytes.Clone(src[:starts[k]]), src[starts[k]+len(lineAt(k)):]...)
	case duplicateLine:
		out = append(bytes.Clone(src[:starts[k]]), append(bytes.Clone(lineAt(k)), src[starts[k]:]...)...)
	case swapLines:
		if k+1 >= len(starts) {
			return out
		}
		a, b := lineAt(k), lineAt(k+1)
		out = append(bytes.Clone(src[:starts[k]]), append(append(bytes.Clone(b), a...), src[starts[k]+len(a)+len(b):]...)...)
	case insertBytes:
		p := pos % (len(out) + 1)
		out = append(bytes.Clone(src[:p]), append(bytes.Clone(arg), src[p:]...)...)
	case overwriteBytes:
		p := pos % len(out)
		copy(out[p:], arg)
	}
	return out
}

// buildJournal returns a version 2 journal of n output records, the
// offsets where its header and each record line start, and the records.
func buildJournal(n int) (src []byte, starts []int) {
	src = []byte(`{"format":"cairn-apply-journal","version":2,"lineage":"l","base_serial":3,"base_exists":true}` + "\n")
	starts = []int{0}
	for i := 1; i <= n; i++ {
		starts = append(starts, len(src))
		src = append(src, line(uint64(i))...)
	}
	return src, starts
}

// checkRecovery is the property every damaged journal must satisfy: the
// header is refused, or the records read are exactly the first records
// written, including every one wholly before the first damaged byte; and
// when a record that was written is not returned, the damage is reported,
// unless all that is missing is one incomplete last write (the torn tail).
func checkRecovery(t *testing.T, orig, damaged []byte, starts []int) {
	t.Helper()
	n := len(starts) - 1
	p := 0 // the first damaged byte
	for p < len(orig) && p < len(damaged) && orig[p] == damaged[p] {
		p++
	}
	intact := 0 // records wholly before it, newline included
	for k := 1; k <= n; k++ {
		end := len(orig)
		if k < n {
			end = starts[k+1]
		}
		if end <= p {
			intact = k
		}
	}
	j, err := parseJournal(damaged)
	if err != nil || !j.complete {
		if intact > 0 {
			t.Fatalf("the header was refused (%v, complete %v) though %d records before the damage are intact", err, j != nil && j.complete, intact)
		}
		return
	}
	if len(j.records) < intact {
		t.Fatalf("read %d records, but the first %d are intact", len(j.records), intact)
	}
	for i, r := range j.records {
		if r.Seq != uint64(i+1) || r.Output == nil || r.Output.Value == nil || !r.Output.Value.Value.RawEquals(cty.NumberIntVal(int64(i+1))) {
			t.Fatalf("record %d is not the one written: %+v", i+1, r)
		}
	}
	if j.damage != nil {
		if j.damage.Offset > p {
			t.Fatalf("damage reported at byte %d, after the first damaged byte %d", j.damage.Offset, p)
		}
		// Records salvaged after the damage must be ones written, in
		// increasing order, none already among the records kept.
		last := uint64(len(j.records))
		for _, r := range j.salvaged {
			if r.Seq <= last || r.Seq > uint64(n) || r.Output == nil || r.Output.Value == nil || !r.Output.Value.Value.RawEquals(cty.NumberIntVal(int64(r.Seq))) {
				t.Fatalf("salvaged record %+v is not one written after record %d", r, last)
			}
			last = r.Seq
		}
		return
	}
	// Not reported: what follows the records must be a single incomplete
	// write.
	end := starts[0]
	for range len(j.records) + 1 {
		end += bytes.IndexByte(damaged[end:], '\n') + 1
	}
	rest := bytes.TrimRight(damaged[min(end, len(damaged)):], "\x00")
	if len(j.records) < n && bytes.IndexByte(rest, '\n') >= 0 {
		t.Fatalf("records %d.. were dropped without reporting damage; the rest holds complete lines: %q", len(j.records)+1, rest)
	}
}

func FuzzJournalDamage(f *testing.F) {
	f.Add(uint8(10), uint8(flipByte), uint16(300), []byte{1})
	f.Add(uint8(10), uint8(truncate), uint16(400), []byte{})
	f.Add(uint8(10), uint8(deleteLine), uint16(4), []byte{})
	f.Add(uint8(10), uint8(duplicateLine), uint16(4), []byte{})
	f.Add(uint8(10), uint8(swapLines), uint16(4), []byte{})
	f.Add(uint8(10), uint8(insertBytes), uint16(500), []byte("garbage\n"))
	f.Add(uint8(10), uint8(overwriteBytes), uint16(500), []byte("\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, n, op uint8, pos uint16, arg []byte) {
		orig, starts := buildJournal(1 + int(n)%20)
		damaged := damage(orig, starts, mutation(op)%mutations, int(pos), arg)
		checkRecovery(t, orig, damaged, starts)
	})
}

// TestJournalDamageRefused replaces one line in the middle of a crashed
// apply's journal with garbage: reading, planning and applying must all
// refuse with an error naming the file and line, change nothing, and
// Recover(true) must keep every record but the damaged one: those before
// the damage and the whole ones after it.
func TestJournalDamageRefused(t *testing.T) {
	m := newManager(t)
	base, err := m.Persist(stateOf(1))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1052
	for i := 1; i <= n; i++ {
		if err := rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), testObject(i), testProvider); err != nil {
			t.Fatal(err)
		}
	}
	abandon(t, rec)
	src, err := os.ReadFile(m.journalPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	lines[301] = []byte("this is not a record\n") // record 301, line 302
	src = bytes.Join(lines, nil)
	if err := os.WriteFile(m.journalPath, src, 0o600); err != nil {
		t.Fatal(err)
	}
	snapshot, _ := os.ReadFile(m.Path())

	for name, op := range map[string]func(*Filesystem) error{
		"read":    func(m *Filesystem) error { _, err := m.Read(); return err },
		"write":   func(m *Filesystem) error { _, err := m.Persist(stateOf(1)); return err },
		"apply":   func(m *Filesystem) error { _, err := m.BeginApply(base); return err },
		"recover": func(m *Filesystem) error { _, err := m.Recover(false); return err },
		"locked read": func(m *Filesystem) error {
			u, _ := m.Lock(t.Context(), LockInfo{}, 0)
			defer u()
			_, err := m.Read()
			return err
		},
	} {
		err := op(NewFilesystem(m.Path()))
		var de *JournalDamageError
		if !errors.As(err, &de) || de.Line != 302 || de.Kept != 300 || de.After != n-301 || de.Salvaged != n-301 {
			t.Errorf("%s: got %v, want a JournalDamageError at line 302 keeping 300 records before it and %d after", name, err, n-301)
		}
		if err != nil && (!strings.Contains(err.Error(), m.journalPath) || !strings.Contains(err.Error(), "line 302")) {
			t.Errorf("%s: the error does not name the file and line: %v", name, err)
		}
		assertUnchanged(t, m.journalPath, src)
		assertUnchanged(t, m.Path(), snapshot)
	}

	got, err := NewFilesystem(m.Path()).Recover(true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&Recovery{Records: 300, Salvaged: n - 301, Unusable: 1, Missing: 1, Damaged: got.Damaged}, got); diff != "" {
		t.Errorf("Recover(true) (-want +got):\n%s", diff)
	}
	assertUnchanged(t, got.Damaged, src)
	if filepath.Dir(got.Damaged) != filepath.Dir(m.journalPath) {
		t.Errorf("damaged journal moved to %s, not beside the state", got.Damaged)
	}
	after, err := NewFilesystem(m.Path()).Read()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= n; i++ {
		is := after.State.ResourceInstance(instanceAddr(i))
		if kept := is != nil && is.Current != nil; kept != (i != 301) {
			t.Errorf("instance %d in state after Recover(true): %v", i, kept)
		}
	}
}

// TestRecoverSalvageKeepsRemovedObjects: after the damage, whole records
// are folded in — except removals, because the lost record before one may
// have moved the object elsewhere (a create_before_destroy deposes, then
// clears): the object stays in state for the next refresh to judge.
func TestRecoverSalvageKeepsRemovedObjects(t *testing.T) {
	m := newManager(t)
	base, err := m.Persist(stateOf(3)) // instances 0, 1, 2
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		i   int
		obj *states.ObjectSrc
	}{{4, testObject(4)}, {1, nil}, {5, testObject(5)}}
	for _, s := range steps {
		if err := rec.SetObject(instanceAddr(s.i).Object(addrs.NotDeposed), s.obj, testProvider); err != nil {
			t.Fatal(err)
		}
	}
	abandon(t, rec)
	src, err := os.ReadFile(m.journalPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	lines[1] = []byte("damaged\n") // the record creating instance 4
	if err := os.WriteFile(m.journalPath, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := NewFilesystem(m.Path()).Recover(true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&Recovery{Salvaged: 2, KeptRemoved: 1, Unusable: 1, Missing: 1, Damaged: got.Damaged}, got); diff != "" {
		t.Errorf("Recover(true) (-want +got):\n%s", diff)
	}
	after, err := NewFilesystem(m.Path()).Read()
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]bool{0: true, 1: true, 2: true, 4: false, 5: true}
	for i, w := range want {
		is := after.State.ResourceInstance(instanceAddr(i))
		if in := is != nil && is.Current != nil; in != w {
			t.Errorf("instance %d in state: %v, want %v", i, in, w)
		}
	}
}
