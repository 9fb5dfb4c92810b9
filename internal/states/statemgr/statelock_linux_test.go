//go:build linux

package statemgr

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// terraformLock tries the lock Terraform 1.5.7's local backend takes: a
// process-owned fcntl F_SETLK write lock on the whole state file. It
// reports whether it got it; the lock is dropped when f is closed.
func terraformLock(t *testing.T, path string) (f *os.File, ok bool) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK}
	err = unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk)
	if err != nil && !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EACCES) {
		t.Fatal(err)
	}
	return f, err == nil
}

// childTerraformLock holds the state file as Terraform does (F_SETLK,
// then its lock info file), says so, and keeps it until stdin closes. It
// must be another process: a process-owned lock is dropped when the
// process closes any descriptor of the file, which Cairn's Lock does.
func childTerraformLock(path string) int {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err == nil {
		err = unix.FcntlFlock(f.Fd(), unix.F_SETLK, &unix.Flock_t{Type: unix.F_WRLCK})
	}
	if err == nil {
		err = os.WriteFile(NewFilesystem(path).lockPath, []byte(terraformInfo), 0o600)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

const terraformInfo = `{"ID":"tf-lock-id","Operation":"OperationTypeApply","Info":"","Who":"tf@host","Version":"1.5.7","Created":"2026-01-01T00:00:00Z","Path":"terraform.tfstate"}`

// TestStateFileLockedWhileHeld checks that while Cairn holds the lock,
// Terraform's lock on the state file is refused, including after a new
// snapshot replaced the file, and that unlock lets Terraform in.
func TestStateFileLockedWhileHeld(t *testing.T) {
	m := newManager(t)
	unlock, err := m.Lock(context.Background(), LockInfo{Operation: "OperationTypeApply"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for step, write := range []bool{false, true, true} {
		if write {
			if _, err := m.Persist(stateOf(step)); err != nil {
				t.Fatal(err)
			}
		}
		f, ok := terraformLock(t, m.Path())
		f.Close()
		if ok {
			t.Fatalf("step %d: Terraform's lock on the state file succeeded while Cairn held the lock", step)
		}
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	f, ok := terraformLock(t, m.Path())
	f.Close()
	if !ok {
		t.Fatal("Terraform's lock on the state file failed after Cairn unlocked")
	}
}

// TestUnlockRemovesCreatedEmptyStateFile checks that locking a missing
// state file leaves nothing behind when nothing was written.
func TestUnlockRemovesCreatedEmptyStateFile(t *testing.T) {
	m := newManager(t)
	unlock, err := m.Lock(context.Background(), LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m.Path()); err != nil {
		t.Fatalf("the lock did not create the state file to lock it: %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m.Path()); !os.IsNotExist(err) {
		t.Fatalf("the empty state file the lock created is still there")
	}
}

// TestLockRefusedWhileTerraformHolds checks that Cairn's Lock fails while
// Terraform holds the state file's lock, names Terraform from its lock
// info file, and leaves that file alone.
func TestLockRefusedWhileTerraformHolds(t *testing.T) {
	m := newManager(t)
	_, out, release := startChild(t, "terraform-lock", m.Path())
	if !out.Scan() || out.Text() != "locked" {
		t.Fatal("the child did not take Terraform's lock")
	}
	_, err := m.Lock(context.Background(), LockInfo{}, 0)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Lock while Terraform holds the state file: got %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "tf-lock-id") || !strings.Contains(err.Error(), "tf@host") {
		t.Errorf("the error does not name Terraform's lock:\n%s", err)
	}
	if got, _ := os.ReadFile(m.lockPath); string(got) != terraformInfo {
		t.Errorf("Terraform's lock info was changed to %q", got)
	}
	if _, err := m.Persist(stateOf(1)); !errors.Is(err, ErrLocked) {
		t.Errorf("Persist while Terraform holds the state file: got %v, want ErrLocked", err)
	}
	release()
	unlock, err := m.Lock(context.Background(), LockInfo{}, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock after Terraform let go: %v", err)
	}
	unlock()
}
