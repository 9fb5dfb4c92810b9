package s3

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/testdynamo"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// TestDynamoDBTable runs dynamodb_table end to end, through package
// dynamolock, against the loopback DynamoDB server: a second client is
// refused while the first holds the lock, and every state write leaves
// the MD5 digest of the stored object in the table, which Terraform
// checks on read.
func TestDynamoDBTable(t *testing.T) {
	srv := tests3.Start(t)
	dyn := testdynamo.Start(t, testdynamo.Options{AccessKey: srv.AccessKey, SecretKey: srv.SecretKey, Tables: []string{"locks"}})
	cfg := dynamoConfig(srv, false)
	cfg.DynamoDBEndpoint = dyn.URL
	first := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	second := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	ctx := context.Background()
	unlock, err := first.Lock(ctx, statemgr.LockInfo{Operation: "OperationTypeApply", Who: "alice@host"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = second.Lock(ctx, statemgr.LockInfo{}, 200*time.Millisecond)
	var le *statemgr.LockError
	if !errors.As(err, &le) || le.Holder == nil || le.Holder.Who != "alice@host" {
		t.Fatalf("second Lock = %v, want a lock error naming alice@host", err)
	}
	if _, err := first.Persist(states.NewState()); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	stored, ok := srv.Get(t, "net/terraform.tfstate")
	if !ok {
		t.Fatal("no state object")
	}
	sum := md5.Sum(stored)
	item, _ := dyn.Item("locks", srv.Bucket+"/net/terraform.tfstate-md5")
	if item["Digest"] != hex.EncodeToString(sum[:]) {
		t.Errorf("digest item = %v, want Digest %x", item, sum)
	}
	if _, err := second.Read(); err != nil {
		t.Errorf("second client reads the state the digest vouches for: %v", err)
	}
}
