package dynamolock

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/testdynamo"
)

const (
	testKey    = "AKIDDYNAMOLOCK"
	testSecret = "dynamolock-test-secret"
	testTable  = "locks"
	testPath   = "bucket/env:/dev/terraform.tfstate"
)

func awsConfig(key, secret string) aws.Config {
	return aws.Config{
		Region:      "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider(key, secret, ""),
	}
}

// start returns a server with the lock table and a Table on it.
func start(t testing.TB) (*testdynamo.Server, *Table) {
	srv := testdynamo.Start(t, testdynamo.Options{AccessKey: testKey, SecretKey: testSecret, Tables: []string{testTable}})
	return srv, New(awsConfig(testKey, testSecret), testTable, srv.URL)
}

func lockInfo(id string) statemgr.LockInfo {
	return statemgr.LockInfo{
		ID: id, Operation: "OperationTypeApply", Who: "alice@host", Version: "1.5.7",
		Created: time.Date(2026, 11, 27, 1, 2, 3, 456789000, time.UTC),
	}
}

// TestLockItem checks the item Lock writes is Terraform's: the key
// "bucket/key" and Info the LockInfo JSON with Path set to it.
func TestLockItem(t *testing.T) {
	srv, tbl := start(t)
	if err := tbl.Lock(context.Background(), testPath, lockInfo("id-1")); err != nil {
		t.Fatal(err)
	}
	item, ok := srv.Item(testTable, testPath)
	if !ok {
		t.Fatal("no lock item")
	}
	want := map[string]string{
		"LockID": testPath,
		"Info": `{"ID":"id-1","Operation":"OperationTypeApply","Info":"","Who":"alice@host","Version":"1.5.7",` +
			`"Created":"2026-11-27T01:02:03.456789Z","Path":"bucket/env:/dev/terraform.tfstate"}`,
	}
	if diff := cmp.Diff(want, item); diff != "" {
		t.Errorf("lock item (-want +got):\n%s", diff)
	}
}

// TestLocking covers the lock's life as other runs see it: each case
// runs steps on two Tables (two runs) sharing one server.
func TestLocking(t *testing.T) {
	type step struct {
		run     int // 0 or 1: which Table
		op      string
		id      string
		wantErr error  // errors.Is target; nil means success
		holder  string // the holder ID the LockError names, or Holder returns
	}
	tests := map[string]struct {
		reason string
		steps  []step
	}{
		"lock and unlock": {
			reason: "a free lock is taken and given back, then free again",
			steps: []step{
				{0, "lock", "a", nil, ""}, {0, "holder", "", nil, "a"},
				{0, "unlock", "a", nil, ""}, {0, "holder", "", nil, ""},
				{1, "lock", "b", nil, ""},
			},
		},
		"contention": {
			reason: "a second run is refused, told who holds the lock",
			steps:  []step{{0, "lock", "a", nil, ""}, {1, "lock", "b", statemgr.ErrLocked, "a"}, {0, "lock", "c", statemgr.ErrLocked, "a"}},
		},
		"unlock with the wrong ID": {
			reason: "only the holder's ID releases the lock; the refusal names the holder and the lock stays",
			steps: []step{
				{0, "lock", "a", nil, ""}, {1, "unlock", "b", ErrOtherHolder, "a"}, {0, "unlock", "b", ErrOtherHolder, "a"},
				{1, "holder", "", nil, "a"},
			},
		},
		"forced unlock": {
			reason: "another run that names the holder's ID releases it (force-unlock)",
			steps:  []step{{0, "lock", "a", nil, ""}, {1, "unlock", "a", nil, ""}, {1, "lock", "b", nil, ""}},
		},
		"broken and retaken": {
			reason: "a run whose lock was broken and taken by another does not delete the other's",
			steps: []step{
				{0, "lock", "a", nil, ""}, {1, "unlock", "a", nil, ""}, {1, "lock", "b", nil, ""},
				{0, "unlock", "a", ErrOtherHolder, "b"}, {1, "holder", "", nil, "b"},
			},
		},
		"unlock when free": {
			reason: "unlocking a lock nobody holds is an error, not a silent success",
			steps:  []step{{0, "unlock", "a", ErrNotLocked, ""}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			srv, _ := start(t)
			runs := []*Table{
				New(awsConfig(testKey, testSecret), testTable, srv.URL),
				New(awsConfig(testKey, testSecret), testTable, srv.URL),
			}
			ctx := context.Background()
			for i, st := range tc.steps {
				var err error
				var holder *statemgr.LockInfo
				switch st.op {
				case "lock":
					err = runs[st.run].Lock(ctx, testPath, lockInfo(st.id))
				case "unlock":
					err = runs[st.run].Unlock(ctx, testPath, st.id)
				case "holder":
					holder, err = runs[st.run].Holder(ctx, testPath)
				}
				if st.wantErr == nil && err != nil || st.wantErr != nil && !errors.Is(err, st.wantErr) {
					t.Fatalf("step %d (%s %s by run %d): got error %v, want %v (%s)", i, st.op, st.id, st.run, err, st.wantErr, tc.reason)
				}
				var le *statemgr.LockError
				if err != nil && !errors.As(err, &le) {
					t.Fatalf("step %d: error %T is not a *statemgr.LockError", i, err)
				}
				if le != nil {
					holder = le.Holder
				}
				got := ""
				if holder != nil {
					got = holder.ID
					if holder.Path != testPath {
						t.Errorf("step %d: holder's Path %q, want %q", i, holder.Path, testPath)
					}
				}
				if got != st.holder {
					t.Errorf("step %d (%s %s by run %d): holder %q, want %q (%s)", i, st.op, st.id, st.run, got, st.holder, tc.reason)
				}
			}
		})
	}
}

// TestUnlockOwnIsOneRequest checks the point of remembering the Info
// written: releasing one's own lock is one conditional DeleteItem.
func TestUnlockOwnIsOneRequest(t *testing.T) {
	srv, tbl := start(t)
	ctx := context.Background()
	if err := tbl.Lock(ctx, testPath, lockInfo("a")); err != nil {
		t.Fatal(err)
	}
	srv.ResetCalls()
	if err := tbl.Unlock(ctx, testPath, "a"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"DeleteItem": 1}, srv.Calls()); diff != "" {
		t.Errorf("requests of Unlock (-want +got):\n%s", diff)
	}
}

// TestConcurrentLock races runs for one lock: exactly one wins, and
// each loser names the winner.
func TestConcurrentLock(t *testing.T) {
	srv, _ := start(t)
	const runs = 8
	var wg sync.WaitGroup
	errs := make([]error, runs)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tbl := New(awsConfig(testKey, testSecret), testTable, srv.URL)
			errs[i] = tbl.Lock(context.Background(), testPath, lockInfo(string(rune('a'+i))))
		}()
	}
	wg.Wait()
	item, _ := srv.Item(testTable, testPath)
	winners := 0
	for _, err := range errs {
		var le *statemgr.LockError
		switch {
		case err == nil:
			winners++
		case errors.As(err, &le) && errors.Is(err, statemgr.ErrLocked):
			if le.Holder == nil || !strings.Contains(item["Info"], `"ID":"`+le.Holder.ID+`"`) {
				t.Errorf("loser names holder %+v, want the winner of %s", le.Holder, item["Info"])
			}
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if winners != 1 {
		t.Errorf("%d runs took the lock, want 1", winners)
	}
}

// TestDigest covers the digest item Terraform checks reads against.
func TestDigest(t *testing.T) {
	srv, tbl := start(t)
	ctx := context.Background()
	sum := md5.Sum([]byte(`{"version":4}`))

	if got, err := tbl.Digest(ctx, testPath); err != nil || got != nil {
		t.Fatalf("Digest with none recorded: %x, %v; want nil, nil", got, err)
	}
	if err := tbl.PutDigest(ctx, testPath, sum[:]); err != nil {
		t.Fatal(err)
	}
	item, _ := srv.Item(testTable, testPath+"-md5")
	want := map[string]string{"LockID": testPath + "-md5", "Digest": hex.EncodeToString(sum[:])}
	if diff := cmp.Diff(want, item); diff != "" {
		t.Errorf("digest item (-want +got):\n%s", diff)
	}
	got, err := tbl.Digest(ctx, testPath)
	if err != nil || string(got) != string(sum[:]) {
		t.Errorf("Digest: %x, %v; want %x", got, err, sum)
	}
	if err := tbl.PutDigest(ctx, testPath, sum[:5]); err == nil {
		t.Error("PutDigest took 5 bytes for an MD5")
	}
	if err := tbl.DeleteDigest(ctx, testPath); err != nil {
		t.Fatal(err)
	}
	if got, err := tbl.Digest(ctx, testPath); err != nil || got != nil {
		t.Errorf("Digest after delete: %x, %v; want nil, nil", got, err)
	}
	if err := tbl.DeleteDigest(ctx, testPath); err != nil {
		t.Errorf("deleting a missing digest: %v", err)
	}
}

// TestRequestErrors checks failures other than contention: they are
// LockErrors that are not contended, name the table, and never carry
// the credentials.
func TestRequestErrors(t *testing.T) {
	srv, _ := start(t)
	tests := map[string]struct {
		table, secret string
	}{
		"missing table": {"nope", testSecret},
		"wrong secret":  {testTable, "the-wrong-secret-value"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tbl := New(awsConfig(testKey, tc.secret), tc.table, srv.URL)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err := tbl.Lock(ctx, testPath, lockInfo("a"))
			var le *statemgr.LockError
			if !errors.As(err, &le) || le.Contended() {
				t.Fatalf("got %v, want an uncontended *statemgr.LockError", err)
			}
			_, derr := tbl.Digest(ctx, testPath)
			for _, e := range []error{err, derr} {
				if e == nil {
					t.Fatal("no error")
				}
				msg := e.Error()
				if !strings.Contains(msg, tc.table) || strings.Contains(msg, tc.secret) {
					t.Errorf("error %q: want the table named and no secret", msg)
				}
			}
		})
	}
}
