package statemgr

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestForceUnlock checks that force-unlock needs the holder's ID, lets
// the next run in while the broken holder lives on, and that the broken
// holder's eventual unlock does not disturb the new holder.
func TestForceUnlock(t *testing.T) {
	hung := newManager(t)
	if _, err := hung.Persist(stateOf(1)); err != nil {
		t.Fatal(err)
	}
	if err := NewFilesystem(hung.Path()).ForceUnlock("any"); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("ForceUnlock with nobody holding: got %v, want ErrNotLocked", err)
	}
	unlockHung, err := hung.Lock(context.Background(), LockInfo{ID: "hung-id"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := NewFilesystem(hung.Path()).ForceUnlock("other-id"); err == nil || !strings.Contains(err.Error(), `current id: "hung-id"`) {
		t.Fatalf("ForceUnlock with the wrong ID: got %v", err)
	}
	if err := NewFilesystem(hung.Path()).ForceUnlock("hung-id"); err != nil {
		t.Fatal(err)
	}
	next := NewFilesystem(hung.Path())
	unlockNext, err := next.Lock(context.Background(), LockInfo{ID: "next-id"}, 0)
	if err != nil {
		t.Fatalf("Lock after force-unlock: %v", err)
	}
	if f, err := next.Read(); err != nil || f == nil || len(f.State.Resources) != 1 {
		t.Fatalf("the state after force-unlock: %v, %v", f, err)
	}
	if err := unlockHung(); err != nil {
		t.Fatal(err)
	}
	if info := readLockInfo(next.lockPath); info == nil || info.ID != "next-id" {
		t.Fatalf("the broken holder's unlock disturbed the new holder's lock info: %+v", info)
	}
	if _, err := NewFilesystem(hung.Path()).Lock(context.Background(), LockInfo{}, 0); !errors.Is(err, ErrLocked) {
		t.Fatalf("Lock while the new holder holds: got %v, want ErrLocked", err)
	}
	if err := unlockNext(); err != nil {
		t.Fatal(err)
	}
}
