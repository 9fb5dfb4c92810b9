package backends

import (
	"errors"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

func stateWithOutput(v string) *states.State {
	s := states.NewState()
	s.Outputs["o"] = &states.OutputValue{Value: cty.StringVal(v)}
	return s
}

// TestPersistOnto: a new state is the next serial of the stored lineage
// (serial 1 of a new one when nothing is stored) and is written; the
// same state is the stored snapshot (its version kept), written again only to rewrite it;
// a failed write is returned.
func TestPersistOnto(t *testing.T) {
	prev := &statefile.File{TerraformVersion: "1.5.7", Lineage: "L", Serial: 4, State: stateWithOutput("a")}
	boom := errors.New("boom")
	for _, tc := range []struct {
		name          string
		prev          *statefile.File
		st            *states.State
		rewrite       bool
		writeErr      error
		wantSerial    uint64
		wantWrites    int
		wantNewLineag bool
	}{
		{"first", nil, stateWithOutput("a"), false, nil, 1, 1, true},
		{"changed", prev, stateWithOutput("b"), false, nil, 5, 1, false},
		{"same", prev, stateWithOutput("a"), false, nil, 4, 0, false},
		{"same, rewritten", prev, stateWithOutput("a"), true, nil, 4, 1, false},
		{"write fails", prev, stateWithOutput("b"), false, boom, 0, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var written []*statefile.File
			got, err := PersistOnto(tc.prev, tc.st, tc.rewrite, func(f *statefile.File) error {
				written = append(written, f)
				return tc.writeErr
			})
			if len(written) != tc.wantWrites {
				t.Fatalf("%d writes, want %d", len(written), tc.wantWrites)
			}
			if tc.writeErr != nil {
				if !errors.Is(err, boom) || got != nil {
					t.Fatalf("PersistOnto = %v, %v", got, err)
				}
				return
			}
			if err != nil || got.Serial != tc.wantSerial || got.State != tc.st || got.TerraformVersion == "" {
				t.Fatalf("PersistOnto = %+v, %v", got, err)
			}
			if newLineage := got.Lineage != "L"; newLineage != tc.wantNewLineag || got.Lineage == "" {
				t.Fatalf("lineage %q", got.Lineage)
			}
			if tc.wantWrites == 1 && written[0] != got {
				t.Fatal("the snapshot returned is not the one written")
			}
		})
	}
}

// TestImportOnto: without force, what statemgr.CheckImport refuses is
// refused; the imported snapshot keeps f's serial and lineage, takes the
// stored lineage when f has none (a new one when nothing is stored), and
// never shares f's state.
func TestImportOnto(t *testing.T) {
	prev := &statefile.File{Lineage: "L", Serial: 9, State: stateWithOutput("a")}
	if _, err := ImportOnto(&statefile.File{Lineage: "M", Serial: 1, State: stateWithOutput("b")}, prev, false); err == nil {
		t.Fatal("an import of another lineage was not refused")
	}
	f := &statefile.File{Lineage: "M", Serial: 1, State: stateWithOutput("b")}
	got, err := ImportOnto(f, prev, true)
	if err != nil || got.Lineage != "M" || got.Serial != 1 || got.State == f.State || !statemgr.SameState(got.State, f.State) || got.TerraformVersion != statemgr.TerraformVersion {
		t.Fatalf("forced ImportOnto = %+v, %v", got, err)
	}
	got, err = ImportOnto(&statefile.File{Serial: 12}, prev, false)
	if err != nil || got.Lineage != "L" || got.State == nil {
		t.Fatalf("ImportOnto without lineage = %+v, %v", got, err)
	}
	if got, _ := ImportOnto(&statefile.File{Serial: 1}, nil, false); got.Lineage == "" {
		t.Fatal("no lineage given to a first import")
	}
}

// TestApplyBase: an apply starts from the stored snapshot when base is
// it; a base refreshed in memory is stored first as the next serial; a
// base that is not the stored snapshot is refused, naming where.
func TestApplyBase(t *testing.T) {
	cur := &statefile.File{TerraformVersion: "1.5.7", Lineage: "L", Serial: 3, State: stateWithOutput("a")}
	boom := errors.New("boom")
	for _, tc := range []struct {
		name       string
		base, cur  *statefile.File
		writeErr   error
		wantSerial uint64 // 0: no snapshot
		wantWrites int
		wantErr    string
	}{
		{"first apply", nil, nil, nil, 0, 0, ""},
		{"unchanged", &statefile.File{Lineage: "L", Serial: 3, State: stateWithOutput("a")}, cur, nil, 3, 0, ""},
		{"refreshed", &statefile.File{Lineage: "L", Serial: 3, State: stateWithOutput("b")}, cur, nil, 4, 1, ""},
		{"refreshed, write fails", &statefile.File{Lineage: "L", Serial: 3, State: stateWithOutput("b")}, cur, boom, 0, 1, "boom"},
		{"moved on", &statefile.File{Lineage: "L", Serial: 2, State: stateWithOutput("a")}, cur, nil, 0, 0, "starting apply on W: the state changed"},
		{"deleted", &statefile.File{Lineage: "L", Serial: 3, State: stateWithOutput("a")}, nil, nil, 0, 0, "starting apply on W: the state (serial 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writes := 0
			got, err := ApplyBase(tc.base, tc.cur, "W", func(f *statefile.File) error {
				writes++
				if f.Serial != 4 || f.Lineage != "L" || f.State == tc.base.State || !statemgr.SameState(f.State, tc.base.State) {
					t.Errorf("wrote %+v", f)
				}
				return tc.writeErr
			})
			if writes != tc.wantWrites {
				t.Fatalf("%d writes, want %d", writes, tc.wantWrites)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || (got == nil) != (tc.wantSerial == 0) || got != nil && got.Serial != tc.wantSerial {
				t.Fatalf("ApplyBase = %+v, %v; want serial %d", got, err, tc.wantSerial)
			}
		})
	}
}
