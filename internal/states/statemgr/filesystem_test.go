package statemgr

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestReadNoState(t *testing.T) {
	tests := map[string]struct {
		reason  string
		content *string // nil: no file
	}{
		"no file":    {reason: "a new working directory"},
		"empty file": {reason: "Terraform leaves an empty file when it locks a new state", content: new(string)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := newManager(t)
			if tc.content != nil {
				if err := os.WriteFile(m.Path(), []byte(*tc.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := m.Read()
			if err != nil || f != nil {
				t.Errorf("Read: got %v, %v; want nil, nil (%s)", f, err, tc.reason)
			}
		})
	}
}

func TestPersistSerialAndLineage(t *testing.T) {
	m := newManager(t)
	first, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	if first.Serial != 1 || first.Lineage == "" || first.TerraformVersion != TerraformVersion {
		t.Errorf("first snapshot: serial %d, lineage %q, version %q; want 1, a new lineage, %s", first.Serial, first.Lineage, first.TerraformVersion, TerraformVersion)
	}

	// Same content: nothing written, serial kept.
	before, _ := os.Stat(m.Path())
	same, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(m.Path())
	if same.Serial != 1 || !os.SameFile(before, after) {
		t.Errorf("persisting equal content: serial %d (want 1), file replaced: %v", same.Serial, !os.SameFile(before, after))
	}
	// Changed content: serial up by one, lineage kept.
	next, err := m.Persist(stateOf(3))
	if err != nil {
		t.Fatal(err)
	}
	if next.Serial != 2 || next.Lineage != first.Lineage {
		t.Errorf("persisting changed content: serial %d lineage %q; want 2 and %q", next.Serial, next.Lineage, first.Lineage)
	}
	// A fresh manager picks up where this one left off.
	other := NewFilesystem(m.Path())
	third, err := other.Persist(stateOf(4))
	if err != nil {
		t.Fatal(err)
	}
	if third.Serial != 3 || third.Lineage != first.Lineage {
		t.Errorf("second manager: serial %d lineage %q; want 3 and %q", third.Serial, third.Lineage, first.Lineage)
	}
	// And the first notices the file changed under it.
	fourth, err := m.Persist(stateOf(5))
	if err != nil {
		t.Fatal(err)
	}
	if fourth.Serial != 4 {
		t.Errorf("after another manager wrote: serial %d, want 4", fourth.Serial)
	}
}

func TestPersistAtomicWithBackup(t *testing.T) {
	m := newManager(t)
	if _, err := m.Persist(stateOf(1)); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(m.Path())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m.backupPath); !os.IsNotExist(err) {
		t.Errorf("backup exists after the first snapshot; there was nothing to back up")
	}
	f, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	backup, err := os.ReadFile(m.backupPath)
	if err != nil {
		t.Fatalf("no backup after replacing a snapshot: %v", err)
	}
	if diff := cmp.Diff(string(old), string(backup)); diff != "" {
		t.Errorf("backup is not the previous snapshot (-want +got):\n%s", diff)
	}
	cur, err := os.ReadFile(m.Path())
	if err != nil {
		t.Fatal(err)
	}
	want, err := statefile.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, cur) {
		t.Errorf("state file is not the persisted snapshot")
	}
	for _, p := range []string{m.Path(), m.backupPath} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
	entries, err := os.ReadDir(filepath.Dir(m.Path()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"terraform.tfstate", "terraform.tfstate.backup"}, names); diff != "" {
		t.Errorf("files left in the directory (-want +got):\n%s", diff)
	}
}

func TestReadCorruptState(t *testing.T) {
	tests := map[string]struct {
		content string
		wantErr string
	}{
		"truncated":   {content: `{"version": 4, "serial": 3, "lineage": "x", "resources": [`, wantErr: "not valid JSON"},
		"old version": {content: `{"version": 3, "serial": 3}`, wantErr: "must be upgraded"},
		"bad entry": {
			content: `{"version":4,"serial":1,"lineage":"l","resources":[{"mode":"managed","type":"t","name":"n","provider":"nope","instances":[]}]}`,
			wantErr: "invalid provider address",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := newManager(t)
			if err := os.WriteFile(m.Path(), []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Stat(m.Path())
			f, err := m.Read()
			if err == nil {
				t.Fatalf("Read of a corrupt state succeeded: %+v", f)
			}
			if !strings.Contains(err.Error(), m.Path()) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q should name %s and say %q", err, m.Path(), tc.wantErr)
			}
			if _, err := m.Persist(stateOf(1)); err == nil {
				t.Errorf("Persist over a corrupt state succeeded; it must not guess a serial and lineage")
			}
			if _, err := m.BeginApply(nil); err == nil {
				t.Errorf("BeginApply over a corrupt state succeeded")
			}
			got, err := os.ReadFile(m.Path())
			if err != nil {
				t.Fatal(err)
			}
			after, _ := os.Stat(m.Path())
			if string(got) != tc.content || !os.SameFile(before, after) || after.Mode() != before.Mode() {
				t.Errorf("the corrupt state file was modified")
			}
			if _, err := os.Stat(m.backupPath); !os.IsNotExist(err) {
				t.Errorf("a backup appeared")
			}
		})
	}
}

func TestReadTerraformState(t *testing.T) {
	// A file Terraform wrote (mode 0644, written in place) reads, and the
	// first Persist continues its lineage and serial.
	src, err := os.ReadFile(filepath.Join("..", "statefile", "testdata", "tf_everything.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	m := newManager(t)
	if err := os.WriteFile(m.Path(), src, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	f.State.Outputs["extra"] = &states.OutputValue{Value: cty.True}
	next, err := m.Persist(f.State)
	if err != nil {
		t.Fatal(err)
	}
	if next.Serial != f.Serial+1 || next.Lineage != f.Lineage {
		t.Errorf("Persist after Terraform: serial %d lineage %s, want %d %s", next.Serial, next.Lineage, f.Serial+1, f.Lineage)
	}
	backup, err := os.ReadFile(m.backupPath)
	if err != nil || !bytes.Equal(backup, src) {
		t.Errorf("backup is not Terraform's file (%v)", err)
	}
}

func TestReadTakesNoLock(t *testing.T) {
	m := newManager(t)
	if _, err := m.Persist(stateOf(1)); err != nil {
		t.Fatal(err)
	}
	holder := NewFilesystem(m.Path())
	unlock, err := holder.Lock(t.Context(), LockInfo{ID: "holder"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := m.Read(); err != nil {
		t.Fatalf("Read while another run holds the lock: %v", err)
	}
	if info := readLockInfo(m.lockPath); info == nil || info.ID != "holder" {
		t.Errorf("Read disturbed the holder's lock file: %+v", info)
	}
}

// TestPersistThroughSymlink keeps a linked state file a link: the file it
// points to gets the new snapshot, and the backup is a regular file with
// the old one, as Terraform writes through the link.
func TestPersistThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real", "prod.tfstate")
	if err := os.Mkdir(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := NewFilesystem(target).Persist(stateOf(1)); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "terraform.tfstate")
	if err := os.Symlink(filepath.Join("real", "prod.tfstate"), link); err != nil {
		t.Fatal(err)
	}
	m := NewFilesystem(link)
	next, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link (%v)", link, err)
	}
	got, err := NewFilesystem(target).Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(next, got, cmpOpts); diff != "" {
		t.Errorf("the link's target (-want +got):\n%s", diff)
	}
	fi, err := os.Lstat(m.backupPath)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("backup %s is not a regular file (%v, %v)", m.backupPath, fi, err)
	}
	backup, _ := os.ReadFile(m.backupPath)
	if !bytes.Equal(old, backup) {
		t.Errorf("backup does not hold the previous snapshot")
	}
}
