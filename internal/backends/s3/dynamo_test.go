package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// dynamoConfig is testConfig with a lock table too.
func dynamoConfig(srv *tests3.Server, lockfile bool) Config {
	cfg := testConfig(srv)
	cfg.DynamoDBTable, cfg.UseLockfile = "locks", lockfile
	return cfg
}

// TestBothLocksAreTaken: with use_lockfile and dynamodb_table both set,
// Lock takes the lock object and the item, as Terraform does; when the
// item is held by another run the lock object is given back and the
// item's holder is shown; unlocking releases both.
func TestBothLocksAreTaken(t *testing.T) {
	srv := tests3.Start(t)
	dyn := newFakeDynamo()
	s := stateOf(t, openTest(t, dynamoConfig(srv, true), openOptions{dynamo: dyn}), "default")
	path := srv.Bucket + "/net/terraform.tfstate"
	ctx := context.Background()
	unlock, err := s.Lock(ctx, statemgr.LockInfo{Operation: "OperationTypeApply"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate.tflock"); !ok {
		t.Error("no lock object")
	}
	if h, _ := dyn.Holder(ctx, path); h == nil || h.Path != path {
		t.Errorf("lock item holder = %+v, want one with Path %s", h, path)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if h, _ := dyn.Holder(ctx, path); h != nil {
		t.Error("lock item still held after unlock")
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate.tflock"); ok {
		t.Error("lock object left after unlock")
	}

	// Another run (Terraform 1.5.7, which knows only the table) holds the item.
	if err := dyn.Lock(ctx, path, statemgr.LockInfo{ID: "tf-run", Who: "bob@ci", Path: path}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Lock(ctx, statemgr.LockInfo{}, 250*time.Millisecond)
	var le *statemgr.LockError
	if !errors.As(err, &le) || le.Holder == nil || le.Holder.Who != "bob@ci" {
		t.Fatalf("Lock while the item is held = %v", err)
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate.tflock"); ok {
		t.Error("lock object kept although the item could not be taken")
	}
	if err := s.ForceUnlock("tf-run"); err != nil {
		t.Fatal(err)
	}
	if h, _ := dyn.Holder(ctx, path); h != nil {
		t.Error("ForceUnlock left the item")
	}
}

// TestDigestFollowsEveryWrite: each state write records the stored
// bytes' MD5 in the table, a read checks it (waiting, then refusing,
// while the object does not match), and deleting a workspace deletes
// its digest.
func TestDigestFollowsEveryWrite(t *testing.T) {
	srv := tests3.Start(t)
	dyn := newFakeDynamo()
	b := openTest(t, dynamoConfig(srv, false), openOptions{dynamo: dyn})
	b.consistencyFor, b.consistencyEvery = 300*time.Millisecond, 50*time.Millisecond
	s := stateOf(t, b, "default")
	path := srv.Bucket + "/net/terraform.tfstate"
	ctx := context.Background()
	check := func(when string) {
		t.Helper()
		stored, _ := srv.Get(t, "net/terraform.tfstate")
		sum := md5.Sum(stored)
		if got, _ := dyn.Digest(ctx, path); !bytes.Equal(got, sum[:]) {
			t.Errorf("%s: digest %x, object's MD5 %x", when, got, sum)
		}
	}
	if _, err := s.Persist(backendtest.StateWith(1)); err != nil {
		t.Fatal(err)
	}
	check("after Persist")
	rec, err := s.BeginApply(nil)
	if err == nil {
		t.Fatal("BeginApply with a nil base over a state succeeded")
	}
	base, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	if rec, err = s.BeginApply(base); err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(backendtest.ObjectAddr(5), backendtest.Object(5), backendtest.Provider); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	check("after an apply")

	// An object that does not match (a stale read, or a hand edit).
	good, _ := srv.Get(t, "net/terraform.tfstate")
	srv.Put(t, "net/terraform.tfstate", append(bytes.Clone(good), '\n'))
	start := time.Now()
	var dm *DigestMismatchError
	if _, err := s.Read(); !errors.As(err, &dm) || !strings.Contains(err.Error(), path+"-md5") {
		t.Fatalf("Read of a mismatching object = %v", err)
	}
	if waited := time.Since(start); waited < 250*time.Millisecond {
		t.Errorf("refused after %s, without waiting for the object to settle", waited)
	}
	if _, err := s.Persist(backendtest.StateWith(3)); !errors.As(err, &dm) {
		t.Fatalf("Persist over a mismatching object = %v", err)
	}
	srv.Put(t, "net/terraform.tfstate", good)
	if _, err := s.Read(); err != nil {
		t.Fatal(err)
	}

	if err := b.CreateWorkspace("dev"); err != nil {
		t.Fatal(err)
	}
	devPath := srv.Bucket + "/env:/dev/net/terraform.tfstate"
	if d, _ := dyn.Digest(ctx, devPath); d == nil {
		t.Fatal("CreateWorkspace recorded no digest")
	}
	if err := b.DeleteWorkspace("dev"); err != nil {
		t.Fatal(err)
	}
	if d, _ := dyn.Digest(ctx, devPath); d != nil {
		t.Error("DeleteWorkspace left the digest")
	}
	if !slices.Contains(dyn.calls, "DeleteDigest "+devPath) {
		t.Errorf("calls %q", dyn.calls)
	}
}
