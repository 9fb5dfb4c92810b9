//go:build unix

package command

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/backends/s3"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// s3CrashConfig is crashConfig on backend "s3" in the test server's
// bucket (endpoint, credentials and region from the environment).
func s3CrashConfig(bucket string) string {
	return fmt.Sprintf(`
terraform {
  backend "s3" {
    bucket                      = %q
    key                         = "crash/terraform.tfstate"
    use_path_style              = true
    use_lockfile                = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
  }
}
`, bucket) + crashConfig
}

// TestS3CrashMidApply SIGKILLs a cairn apply on s3: every instance it
// reported created is in the state a read-only command sees (the journal
// objects beside the state object), and the next apply finishes the job
// with nothing left to change and no journal object left behind.
func TestS3CrashMidApply(t *testing.T) {
	srv := tests3.Start(t)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(s3CrashConfig(srv.Bucket)), 0o600); err != nil {
		t.Fatal(err)
	}
	runCairn(t, work, 0, "init", "-input=false")
	nVar := fmt.Sprintf("-var=n=%d", crashInstances)
	done := killAfter(t, work, "Creation complete", crashInstances/3, "apply", "-auto-approve", nVar)
	if keys := srv.List(t, "crash/terraform.tfstate.cairn-journal/"); len(keys) == 0 {
		t.Fatal("no journal objects after the kill")
	}
	// The killed run's lock object stays; a read-only command needs none.
	runCairn(t, work, 0, "state", "list")
	b, err := s3.Open(context.Background(), s3.Config{
		Bucket: srv.Bucket, Key: "crash/terraform.tfstate", Region: srv.Region, S3Endpoint: srv.URL,
		UsePathStyle: true, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey,
		SkipCredentialsValidation: true, SkipRequestingAccountID: true,
	})
	checkInstances(t, readDefaultState(t, "reading the state after the kill", b, err).State, done)
	// The killed run's lock is broken as a user would: force-unlock with
	// the ID the lock object holds.
	src, ok := srv.Get(t, "crash/terraform.tfstate.tflock")
	if !ok {
		t.Fatal("the killed run left no lock object")
	}
	var held statemgr.LockInfo
	if err := json.Unmarshal(src, &held); err != nil || held.ID == "" {
		t.Fatalf("the lock object %s: %v", src, err)
	}
	runCairn(t, work, 1, "apply", "-auto-approve", nVar)
	runCairn(t, work, 0, "force-unlock", "-force", held.ID)
	runCairn(t, work, 0, "apply", "-auto-approve", nVar)
	runCairn(t, work, 0, "plan", "-detailed-exitcode", nVar)
	if keys := srv.List(t, "crash/terraform.tfstate.cairn-journal/"); len(keys) != 0 {
		t.Fatalf("%d journal objects left after a finished apply", len(keys))
	}
}
