package statemgr

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// mountSmallDisk mounts a tmpfs of the given size on a new directory, or
// skips the test where mounting is not allowed (unprivileged CI).
func mountSmallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a %s tmpfs (needs root): %v", size, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
	})
	return dir
}

// TestSmallRealDisk applies on a real 300 KiB file system: the journal's
// preallocation cannot fit and must give way; then the disk is filled,
// and the records that were acknowledged must survive it, the failure be
// reported, and the next command recover once space is freed.
func TestSmallRealDisk(t *testing.T) {
	dir := mountSmallDisk(t, "300k")
	m := NewFilesystem(filepath.Join(dir, "terraform.tfstate"))
	base, err := m.Persist(stateOf(2))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i < 22; i++ {
		if err := rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), testObject(i), testProvider); err != nil {
			t.Fatalf("instance %d on a disk with room for it: %v", i, err)
		}
	}
	filler := fillDisk(t, dir)
	acked := map[int]bool{}
	var failure error
	for i := 22; i < 400 && failure == nil; i++ {
		failure = rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), testObject(i), testProvider)
		acked[i] = failure == nil
	}
	if !errors.Is(failure, syscall.ENOSPC) {
		t.Fatalf("recording on a full disk: got %v, want ENOSPC", failure)
	}
	_, err = rec.Close()
	var nd *NotDurableError
	if !errors.As(err, &nd) {
		t.Fatalf("Close on a full disk: got %v, want a NotDurableError", err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if _, err := NewFilesystem(m.Path()).Recover(false); err != nil {
		t.Fatalf("Recover once space is free: %v", err)
	}
	got, err := NewFilesystem(m.Path()).Read()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		is := got.State.ResourceInstance(instanceAddr(i))
		if (i < 22 || acked[i]) && (is == nil || is.Current == nil) {
			t.Errorf("acknowledged instance %d lost", i)
		}
	}
}

// fillDisk writes a file until the disk at dir is full, returning its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	// Leave the last partial block too: nothing may fit.
	for _, err := f.Write(block[:1]); err == nil; _, err = f.Write(block[:1]) {
	}
	return path
}
