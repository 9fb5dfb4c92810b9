package s3

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// TestLockfileExcludesOtherRuns: two clients of one bucket (two runs):
// while one holds the lock object, the other's Lock, Persist and
// BeginApply are refused naming the holder; the object's body is the
// lock info as Terraform and OpenTofu write it; unlocking deletes it;
// a waiting Lock gets it once it is released.
func TestLockfileExcludesOtherRuns(t *testing.T) {
	srv := tests3.Start(t)
	a := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	b := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	ctx := context.Background()
	unlock, err := a.Lock(ctx, statemgr.LockInfo{Operation: "OperationTypeApply", Info: "run A"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	body, ok := srv.Get(t, "net/terraform.tfstate.tflock")
	if !ok {
		t.Fatal("no lock object")
	}
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		t.Fatalf("lock object is not JSON: %s", body)
	}
	var keys []string
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"Created", "ID", "Info", "Operation", "Path", "Version", "Who"}; !slices.Equal(keys, want) {
		t.Errorf("lock object fields %q, want Terraform's %q", keys, want)
	}
	var info statemgr.LockInfo
	if err := json.Unmarshal(body, &info); err != nil {
		t.Fatal(err)
	}
	if info.Path != srv.Bucket+"/net/terraform.tfstate" || info.Operation != "OperationTypeApply" || info.Info != "run A" || info.ID == "" || info.Who == "" || info.Created.IsZero() {
		t.Errorf("lock info = %+v", info)
	}

	_, err = b.Lock(ctx, statemgr.LockInfo{Operation: "OperationTypePlan"}, 300*time.Millisecond)
	var le *statemgr.LockError
	if !errors.As(err, &le) || !errors.Is(err, statemgr.ErrLocked) || le.Holder == nil || le.Holder.ID != info.ID {
		t.Fatalf("second Lock = %v, want a LockError naming holder %s", err, info.ID)
	}
	if !strings.Contains(err.Error(), "run A") {
		t.Errorf("lock error does not show the holder: %v", err)
	}
	if _, err := b.Persist(backendtest.StateWith(1)); !errors.As(err, &le) {
		t.Errorf("Persist while locked elsewhere = %v, want a LockError", err)
	}
	if _, err := b.BeginApply(nil); !errors.As(err, &le) {
		t.Errorf("BeginApply while locked elsewhere = %v, want a LockError", err)
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate"); ok {
		t.Error("a refused run wrote the state")
	}
	// The holder itself writes under its lock.
	if _, err := a.Persist(backendtest.StateWith(1)); err != nil {
		t.Fatal(err)
	}

	got := make(chan error, 1)
	go func() {
		unlockB, err := b.Lock(ctx, statemgr.LockInfo{Operation: "OperationTypeApply"}, 10*time.Second)
		if err == nil {
			err = unlockB()
		}
		got <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("waiting Lock: %v", err)
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate.tflock"); ok {
		t.Error("lock object left after both unlocked")
	}
	if err := unlock(); err != nil {
		t.Errorf("second unlock: %v", err)
	}
}

// TestForeignLockObject: a lock object another tool wrote (Terraform's
// or OpenTofu's JSON) excludes Cairn and is shown; ForceUnlock with
// another ID is refused, with its ID deletes it.
func TestForeignLockObject(t *testing.T) {
	srv := tests3.Start(t)
	s := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default")
	foreign := `{"ID":"9db4e5e0-1b4f-4f6c-8c2e-0f5b6a4f2b11","Operation":"OperationTypeApply","Info":"","Who":"alice@laptop","Version":"1.10.5","Created":"2026-11-26T10:00:00.000000Z","Path":"` + srv.Bucket + `/net/terraform.tfstate"}`
	srv.Put(t, "net/terraform.tfstate.tflock", []byte(foreign))
	_, err := s.Lock(context.Background(), statemgr.LockInfo{}, 0)
	if err == nil || !strings.Contains(err.Error(), "alice@laptop") || !strings.Contains(err.Error(), "1.10.5") {
		t.Fatalf("Lock = %v, want the other tool's holder shown", err)
	}
	if err := s.ForceUnlock("some-other-id"); err == nil {
		t.Fatal("ForceUnlock with the wrong ID succeeded")
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate.tflock"); !ok {
		t.Fatal("the lock object was deleted by a refused ForceUnlock")
	}
	if err := s.ForceUnlock("9db4e5e0-1b4f-4f6c-8c2e-0f5b6a4f2b11"); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate.tflock"); ok {
		t.Fatal("ForceUnlock left the lock object")
	}
}

// TestNoLockConfigured: without use_lockfile or dynamodb_table nothing
// locks, as in Terraform, and no lock object is written.
func TestNoLockConfigured(t *testing.T) {
	srv := tests3.Start(t)
	cfg := testConfig(srv)
	cfg.UseLockfile = false
	s := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	unlock, err := s.Lock(context.Background(), statemgr.LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Persist(backendtest.StateWith(1)); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if keys := srv.List(t, ""); !slices.Equal(keys, []string{"net/terraform.tfstate"}) {
		t.Errorf("bucket holds %q", keys)
	}
}

// TestCloseReleasesLocks: a lock object outlives its process, so the
// backend gives back what its managers still hold when it closes.
func TestCloseReleasesLocks(t *testing.T) {
	srv := tests3.Start(t)
	b, err := Open(context.Background(), testConfig(srv))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stateOf(t, b, "default").Lock(context.Background(), statemgr.LockInfo{}, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate.tflock"); ok {
		t.Fatal("lock object left after Close")
	}
}
