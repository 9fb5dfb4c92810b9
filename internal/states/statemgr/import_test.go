package statemgr

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// TestImport checks state push's history rules: what may replace the
// snapshot on disk without force, and that the pushed lineage and serial
// are kept as they are.
func TestImport(t *testing.T) {
	tests := []struct {
		name    string
		lineage string
		serial  uint64
		objects int
		force   bool
		wantErr string
	}{
		{name: "newer", lineage: "L", serial: 5, objects: 1},
		{name: "identical", lineage: "L", serial: 3, objects: 2},
		{name: "older", lineage: "L", serial: 2, objects: 2, wantErr: "cannot import state with serial 2 over newer state with serial 3"},
		{name: "unrelated", lineage: "M", serial: 9, objects: 2, wantErr: `cannot import state with lineage "M" over unrelated state with lineage "L"`},
		{name: "same serial differs", lineage: "L", serial: 3, objects: 1, wantErr: "with a different state that has the same serial"},
		{name: "forced older", lineage: "L", serial: 1, objects: 1, force: true},
		{name: "forced unrelated", lineage: "M", serial: 1, objects: 1, force: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newManager(t)
			if err := m.Import(&statefile.File{Lineage: "L", Serial: 3, State: stateOf(2)}, true); err != nil {
				t.Fatal(err)
			}
			err := m.Import(&statefile.File{Lineage: tc.lineage, Serial: tc.serial, State: stateOf(tc.objects)}, tc.force)
			got, rerr := NewFilesystem(m.Path()).Read()
			if rerr != nil {
				t.Fatal(rerr)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				if got.Lineage != "L" || got.Serial != 3 {
					t.Fatalf("refused import changed the state to %s/%d", got.Lineage, got.Serial)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Lineage != tc.lineage || got.Serial != tc.serial || len(got.State.Resources) != tc.objects {
				t.Fatalf("state is %s/%d, want %s/%d", got.Lineage, got.Serial, tc.lineage, tc.serial)
			}
		})
	}
}

// TestImportOverEmpty checks that an empty state may be replaced by
// anything, as Terraform allows.
func TestImportOverEmpty(t *testing.T) {
	m := newManager(t)
	if err := m.Import(&statefile.File{Lineage: "L", Serial: 8, State: stateOf(0)}, true); err != nil {
		t.Fatal(err)
	}
	if err := m.Import(&statefile.File{Lineage: "M", Serial: 1, State: stateOf(1)}, false); err != nil {
		t.Fatalf("import over an empty state: %v", err)
	}
}
