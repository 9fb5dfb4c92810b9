package server

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAWSCLI drives the endpoint with the AWS CLI, a second real client
// (botocore signs and parses on its own), when it is installed.
func TestAWSCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the AWS CLI")
	}
	awsPath, err := exec.LookPath("aws")
	if err != nil {
		t.Skip("aws CLI not installed")
	}
	h := newHarness(t, func(h *harness) { h.opts.AccessKey, h.opts.SecretKey = testKey, testSecret })
	run := func(args ...string) map[string]any {
		t.Helper()
		cmd := exec.Command(awsPath, append([]string{"--endpoint-url", h.http.URL, "--output", "json"}, args...)...)
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+testKey, "AWS_SECRET_ACCESS_KEY="+testSecret,
			"AWS_DEFAULT_REGION=us-east-1", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
			"AWS_MAX_ATTEMPTS=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("aws %v: %v\n%s", args, err, stderrOf(err))
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("aws %v: %v\n%s", args, err, out)
		}
		return m
	}
	ident := run("sts", "get-caller-identity")
	created := run("cloudcontrol", "create-resource", "--type-name", logGroupType,
		"--desired-state", `{"LogGroupName":"cli","RetentionInDays":7}`)
	token := created["ProgressEvent"].(map[string]any)["RequestToken"].(string)
	h.mustSucceed(h.wait(&token))
	got := run("cloudcontrol", "get-resource", "--type-name", logGroupType, "--identifier", "cli")
	list := run("cloudcontrol", "list-resource-requests")
	summary := list["ResourceRequestStatusSummaries"].([]any)[0].(map[string]any)

	want := []any{"123456789012", "cli", `{"Arn":"arn:aws:test:::cli","LogGroupName":"cli","RetentionInDays":7}`, "SUCCESS"}
	desc := got["ResourceDescription"].(map[string]any)
	if diff := cmp.Diff(want, []any{ident["Account"], desc["Identifier"], desc["Properties"], summary["OperationStatus"]}); diff != "" {
		t.Errorf("AWS CLI answers (-want +got):\n%s", diff)
	}
}

func stderrOf(err error) []byte {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.Stderr
	}
	return nil
}
