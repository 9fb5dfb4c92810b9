package dynamolock

import (
	"context"
	"crypto/md5"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/testdynamo"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// tool is a real Terraform or OpenTofu working directory whose backend
// "s3" keeps state in a versitygw bucket and locks in a testdynamo
// table, the two servers sharing one set of credentials (so both SDKs'
// signatures are verified).
type tool struct {
	bin, dir string
	env      []string
	s3       *tests3.Server
	dynamo   *testdynamo.Server
	table    *Table // Cairn's view of the same table
	key      string // the state object's key
}

// lockPath is the state's lock item, as Terraform names it.
func (tl *tool) lockPath() string { return tl.s3.Bucket + "/" + tl.key }

// toolBinary returns the binary env names if its version output starts
// with version, or skips.
func toolBinary(t *testing.T, env, version string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		t.Skipf("set %s (source the test environment) to test with %s", env, version)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.Contains(string(out), version) {
		t.Skipf("%s is not %s: %.40q %v", bin, version, out, err)
	}
	return bin
}

// newTool writes config (with BACKEND replaced by the backend block
// backend returns) to a new directory and runs init there.
func newTool(t *testing.T, bin string, backend func(s3URL, dynamoURL, bucket string) string, config string) *tool {
	t.Helper()
	s3srv := tests3.Start(t)
	dyn := testdynamo.Start(t, testdynamo.Options{AccessKey: s3srv.AccessKey, SecretKey: s3srv.SecretKey, Tables: []string{testTable}})
	tl := &tool{
		bin: bin, dir: t.TempDir(), s3: s3srv, dynamo: dyn, key: "team/terraform.tfstate",
		table: New(s3srv.AWSConfig(), testTable, dyn.URL),
	}
	tl.env = append(os.Environ(), s3srv.Env()...)
	tl.env = append(tl.env, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0",
		"TF_CLI_CONFIG_FILE="+filepath.Join(tl.dir, "none.tfrc"), "HOME="+tl.dir)
	if err := os.WriteFile(filepath.Join(tl.dir, "none.tfrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(config, "BACKEND", backend(s3srv.URL, dyn.URL, s3srv.Bucket), 1)
	if err := os.WriteFile(filepath.Join(tl.dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := tl.run(t, "init", "-input=false", "-no-color"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	return tl
}

// run runs the tool in its directory and returns its combined output.
func (tl *tool) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tl.bin, args...)
	cmd.Dir, cmd.Env = tl.dir, tl.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// stateObject returns the state object and its MD5.
func (tl *tool) stateObject(t *testing.T) ([]byte, []byte) {
	t.Helper()
	b, ok := tl.s3.Get(t, tl.key)
	if !ok {
		t.Fatalf("no state object %s", tl.key)
	}
	sum := md5.Sum(b)
	return b, sum[:]
}

func terraformBackend(s3URL, dynamoURL, bucket string) string {
	return `backend "s3" {
    bucket                      = "` + bucket + `"
    key                         = "team/terraform.tfstate"
    region                      = "us-east-1"
    endpoint                    = "` + s3URL + `"
    force_path_style            = true
    dynamodb_endpoint           = "` + dynamoURL + `"
    dynamodb_table              = "` + testTable + `"
    skip_credentials_validation = true
    skip_region_validation      = true
    skip_metadata_api_check     = true
  }`
}

func tofuBackend(s3URL, dynamoURL, bucket string) string {
	return `backend "s3" {
    bucket                      = "` + bucket + `"
    key                         = "team/terraform.tfstate"
    region                      = "us-east-1"
    endpoints = {
      s3       = "` + s3URL + `"
      dynamodb = "` + dynamoURL + `"
    }
    use_path_style              = true
    dynamodb_table              = "` + testTable + `"
    skip_credentials_validation = true
    skip_region_validation      = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
  }`
}

// holdingConfig is a configuration whose apply with hold=true holds the
// lock until the test creates the file "release" (the resource is
// replaced, and its local-exec provisioner waits for the file, having
// created "started").
const holdingConfig = `terraform {
  BACKEND
}

variable "hold" {
  type    = bool
  default = false
}

resource "terraform_data" "d" {
  triggers_replace = var.hold
  provisioner "local-exec" {
    command = var.hold ? "touch started; while [ ! -f release ]; do sleep 0.1; done" : "true"
  }
}

output "greeting" {
  value = "hello"
}
`

// cairnHolds takes the lock as a Cairn run would and returns its ID.
func cairnHolds(t *testing.T, tl *tool) string {
	t.Helper()
	info := lockInfo("cairn-lock-4e1f")
	info.Who = "cairn-run@test"
	if err := tl.table.Lock(context.Background(), tl.lockPath(), info); err != nil {
		t.Fatalf("Cairn's lock: %v", err)
	}
	return info.ID
}

// TestTerraformSharesTheTable runs the real Terraform 1.5.7 against the
// table Cairn locks in: each run excludes the other, and the digest each
// writes is the one the other checks.
func TestTerraformSharesTheTable(t *testing.T) {
	bin := toolBinary(t, "CAIRN_TERRAFORM", "Terraform v1.5.7")
	tl := newTool(t, bin, terraformBackend, holdingConfig)
	ctx := context.Background()

	t.Run("Terraform is excluded while Cairn holds the lock", func(t *testing.T) {
		id := cairnHolds(t, tl)
		out, err := tl.run(t, "plan", "-lock-timeout=1s", "-input=false", "-no-color")
		if err == nil || !strings.Contains(out, "Error acquiring the state lock") ||
			!strings.Contains(out, id) || !strings.Contains(out, "cairn-run@test") {
			t.Fatalf("plan while Cairn holds the lock: %v\n%s", err, out)
		}
		if err := tl.table.Unlock(ctx, tl.lockPath(), id); err != nil {
			t.Fatal(err)
		}
		if out, err := tl.run(t, "plan", "-lock-timeout=1s", "-input=false", "-no-color"); err != nil {
			t.Fatalf("plan after Cairn's unlock: %v\n%s", err, out)
		}
	})

	t.Run("Terraform's force-unlock releases Cairn's lock", func(t *testing.T) {
		toolForceUnlocks(t, tl)
	})

	t.Run("the digest Terraform writes is the state object's MD5", func(t *testing.T) {
		tl.dynamo.ResetCalls()
		if out, err := tl.run(t, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Fatalf("apply: %v\n%s", err, out)
		}
		t.Logf("DynamoDB requests of terraform apply: %v", tl.dynamo.Calls())
		_, sum := tl.stateObject(t)
		got, err := tl.table.Digest(ctx, tl.lockPath())
		if err != nil || string(got) != string(sum) {
			t.Fatalf("Digest: %x, %v; want the state object's MD5 %x", got, err, sum)
		}
		if h, err := tl.table.Holder(ctx, tl.lockPath()); h != nil || err != nil {
			t.Errorf("after apply, holder %+v, %v; want the lock released", h, err)
		}
	})

	t.Run("Cairn is excluded while Terraform holds the lock", func(t *testing.T) {
		holderExcludesCairn(t, tl, "apply", "-auto-approve", "-input=false", "-no-color", "-var=hold=true")
	})

	t.Run("Terraform reads a state Cairn wrote with its digest", func(t *testing.T) {
		cairnWritesState(t, tl, "from-cairn", true)
		out, err := tl.run(t, "output", "-raw", "greeting")
		if err != nil || out != "from-cairn" {
			t.Fatalf("terraform output: %v\n%s", err, out)
		}
	})

	t.Run("Terraform refuses a state whose digest Cairn did not record", func(t *testing.T) {
		// Terraform retries for 10 seconds before it gives up.
		cairnWritesState(t, tl, "stale", false)
		out, err := tl.run(t, "output", "-raw", "greeting")
		if err == nil || !strings.Contains(out, "does not have the expected content") {
			t.Fatalf("terraform output of a state with another digest: %v\n%s", err, out)
		}
	})
}

// holderExcludesCairn starts the tool's args (an apply that waits for
// "release" while holding the lock), checks Cairn's Lock is refused with
// the tool's lock as holder, then lets the tool finish.
func holderExcludesCairn(t *testing.T, tl *tool, args ...string) {
	t.Helper()
	done := make(chan error, 1)
	var out string
	go func() {
		var err error
		out, err = tl.run(t, args...)
		done <- err
	}()
	release := func() { _ = os.WriteFile(filepath.Join(tl.dir, "release"), nil, 0o644) }
	defer release()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(tl.dir, "started")); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the tool ended before holding the lock: %v\n%s", err, out)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the tool did not start applying")
		}
	}
	err := tl.table.Lock(context.Background(), tl.lockPath(), lockInfo("cairn-excluded"))
	var le *statemgr.LockError
	if !errors.As(err, &le) || !errors.Is(err, statemgr.ErrLocked) || le.Holder == nil {
		t.Fatalf("Cairn's Lock while the tool applies: %v, want ErrLocked naming the holder", err)
	}
	if le.Holder.Operation != "OperationTypeApply" || le.Holder.Path != tl.lockPath() || le.Holder.ID == "" {
		t.Errorf("holder %+v, want the tool's apply on %s", le.Holder, tl.lockPath())
	}
	// The tool's Info is exactly what Cairn writes for the same fields,
	// so each reads (and OpenTofu's conditional unlock matches) the
	// other's.
	item, _ := tl.dynamo.Item(testTable, tl.lockPath())
	if mine, _ := json.Marshal(le.Holder); string(mine) != item["Info"] {
		t.Errorf("the tool's Info\n%s\nCairn's for the same lock\n%s", item["Info"], mine)
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("the tool's apply: %v\n%s", err, out)
	}
	if h, err := tl.table.Holder(context.Background(), tl.lockPath()); h != nil || err != nil {
		t.Errorf("after the tool's apply, holder %+v, %v; want the lock released", h, err)
	}
}

// cairnWritesState writes, as Cairn's backend would, the tool's state
// with the output greeting set to value and the next serial, under
// Cairn's lock, recording its digest when withDigest is set.
func cairnWritesState(t *testing.T, tl *tool, value string, withDigest bool) {
	t.Helper()
	ctx := context.Background()
	id := cairnHolds(t, tl)
	defer func() {
		if err := tl.table.Unlock(ctx, tl.lockPath(), id); err != nil {
			t.Error(err)
		}
	}()
	old, _ := tl.stateObject(t)
	var st map[string]any
	if err := json.Unmarshal(old, &st); err != nil {
		t.Fatal(err)
	}
	st["serial"] = st["serial"].(float64) + 1
	st["outputs"].(map[string]any)["greeting"].(map[string]any)["value"] = value
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	tl.s3.Put(t, tl.key, b)
	if withDigest {
		sum := md5.Sum(b)
		if err := tl.table.PutDigest(ctx, tl.lockPath(), sum[:]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenTofuSharesTheTable runs OpenTofu 1.12.6 (aws-sdk-go-v2, the
// endpoints block) against the same kind of table: excluded while Cairn
// holds the lock, its force-unlock (a delete conditional on Info)
// releases Cairn's lock, it holds the lock against Cairn while applying,
// its apply leaves the digest of its state object, and it reads a state
// Cairn wrote with its digest.
func TestOpenTofuSharesTheTable(t *testing.T) {
	bin := toolBinary(t, "CAIRN_TOFU", "OpenTofu v1.12.6")
	tl := newTool(t, bin, tofuBackend, holdingConfig)
	ctx := context.Background()

	id := cairnHolds(t, tl)
	out, err := tl.run(t, "plan", "-lock-timeout=1s", "-input=false", "-no-color")
	if err == nil || !strings.Contains(out, "Error acquiring the state lock") || !strings.Contains(out, id) {
		t.Fatalf("tofu plan while Cairn holds the lock: %v\n%s", err, out)
	}
	if err := tl.table.Unlock(ctx, tl.lockPath(), id); err != nil {
		t.Fatal(err)
	}
	toolForceUnlocks(t, tl)
	tl.dynamo.ResetCalls()
	holderExcludesCairn(t, tl, "apply", "-auto-approve", "-input=false", "-no-color", "-var=hold=true")
	t.Logf("DynamoDB requests of tofu apply (and of Cairn's refused Lock: a PutItem and a GetItem): %v", tl.dynamo.Calls())
	_, sum := tl.stateObject(t)
	if got, err := tl.table.Digest(ctx, tl.lockPath()); err != nil || string(got) != string(sum) {
		t.Fatalf("Digest: %x, %v; want the state object's MD5 %x", got, err, sum)
	}
	cairnWritesState(t, tl, "from-cairn", true)
	if out, err := tl.run(t, "output", "-raw", "greeting"); err != nil || out != "from-cairn" {
		t.Fatalf("tofu output: %v\n%s", err, out)
	}
}

// toolForceUnlocks checks the tool's force-unlock, given the ID, releases
// a lock Cairn holds: Terraform reads the Info and deletes the item;
// OpenTofu deletes it on the condition that Info is its own marshalling
// of what it read, which holds only if Cairn's Info is byte for byte
// what the tool writes.
func toolForceUnlocks(t *testing.T, tl *tool) {
	t.Helper()
	id := cairnHolds(t, tl)
	if out, err := tl.run(t, "force-unlock", "-force", id); err != nil {
		t.Fatalf("force-unlock of Cairn's lock: %v\n%s", err, out)
	}
	if h, err := tl.table.Holder(context.Background(), tl.lockPath()); h != nil || err != nil {
		t.Fatalf("after force-unlock, holder %+v, %v; want none", h, err)
	}
}
