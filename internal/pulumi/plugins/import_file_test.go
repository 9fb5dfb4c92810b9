package plugins

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/pulumi/importfile"
	"github.com/cairn-iac/cairn/internal/testendpoint"
	"github.com/cairn-iac/cairn/internal/testprocess"
	"github.com/cairn-iac/cairn/internal/testproviders"
)

// TestImportFileLogGroups is discovery and import end to end: log groups
// made on Cairn's endpoint behind Pulumi's back are listed through awscc's
// list resource, written as a `pulumi import --file` bulk file, and
// imported by the real Pulumi CLI with Cairn's awscc plugin; the stack
// then holds every one under the ID Cloud Control knows it by, and a
// program declaring them previews no changes.
func TestImportFileLogGroups(t *testing.T) {
	dir, ok := testproviders.Pulumi()
	if !ok {
		t.Skip("the Pulumi CLI is not installed (scripts/install-pulumi.sh)")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	testprocess.Build(t, bin, "github.com/cairn-iac/cairn/cmd/pulumi-resource-awscc")
	ep := testendpoint.Start(t)
	for _, kv := range ep.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	groups := map[string]int{"/aws/lambda/fn": 3, "app": 7, "app-2": 14}
	for i := range 7 {
		groups[fmt.Sprintf("svc-%02d", i)] = 30
	}
	createLogGroups(t, ep.URL, groups)

	const types = "AWS::Logs::LogGroup"
	f, ds := AWSCCImportFile(context.Background(), cfnsources.FromEnv(os.Getenv, cfnsources.InWorkingDir), types,
		importfile.Options{Types: []string{"awscc:logs/logGroup:LogGroup"}})
	if ds.HasErrors() {
		t.Fatalf("import file: %v", ds.Err())
	}
	if len(f.Resources) != len(groups) {
		t.Fatalf("import file has %d resources, want %d:\n%s", len(f.Resources), len(groups), f.JSON())
	}
	byID := map[string]importfile.Resource{}
	for _, r := range f.Resources {
		if r.Type != "awscc:logs/logGroup:LogGroup" {
			t.Errorf("resource %s: type %q", r.Name, r.Type)
		}
		byID[r.ID] = r
	}
	for name := range groups {
		if _, ok := byID[name]; !ok {
			t.Errorf("no import entry with ID %q:\n%s", name, f.JSON())
		}
	}
	if got := byID["/aws/lambda/fn"].Name; got != "aws-lambda-fn" {
		t.Errorf("name of /aws/lambda/fn = %q, want aws-lambda-fn", got)
	}
	prog := filepath.Join(work, "prog")
	for _, d := range []string{prog, filepath.Join(work, "state")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(work, "import.json")
	write(t, file, f.JSON())
	write(t, filepath.Join(prog, "Pulumi.yaml"), []byte("name: discover\nruntime: yaml\nconfig:\n  awscc:region: us-east-1\n"))
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+dir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PULUMI_HOME="+filepath.Join(work, ".pulumi"), "PULUMI_BACKEND_URL=file://"+filepath.Join(work, "state"),
		"PULUMI_CONFIG_PASSPHRASE=cairn-test", "PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true", "PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true",
		"CAIRN_AWSCC_TYPES="+types)
	pulumi := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(dir, "pulumi"), args...)
		cmd.Dir, cmd.Env = prog, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	pulumi("stack", "init", "dev")
	out := pulumi("import", "--file", file, "--yes", "--generate-code=false")
	if want := fmt.Sprintf("%d imported", len(groups)); !strings.Contains(out, want) {
		t.Errorf("pulumi import: want %q in\n%s", want, out)
	}
	if got := stackIDs(t, pulumi("stack", "export"), "awscc:logs/logGroup:LogGroup"); strings.Join(got, ",") != strings.Join(sortedKeys(groups), ",") {
		t.Errorf("stack holds log groups %v, want %v", got, sortedKeys(groups))
	}
	write(t, filepath.Join(prog, "Pulumi.yaml"), logGroupProgram(f, groups))
	pulumi("preview", "--expect-no-changes")
}

// createLogGroups makes log groups on the endpoint at url, as someone
// outside Pulumi would, with retention in days by name.
func createLogGroups(t testing.TB, url string, groups map[string]int) {
	t.Helper()
	ctx := context.Background()
	client := cloudcontrol.New(cloudcontrol.Options{Region: "us-east-1", BaseEndpoint: aws.String(url), Credentials: aws.AnonymousCredentials{}})
	for name, days := range groups {
		out, err := client.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"),
			DesiredState: aws.String(fmt.Sprintf(`{"LogGroupName":%q,"RetentionInDays":%d}`, name, days))})
		if err != nil {
			t.Fatal(err)
		}
		ev := out.ProgressEvent
		for deadline := time.Now().Add(30 * time.Second); ev.OperationStatus == cctypes.OperationStatusInProgress || ev.OperationStatus == cctypes.OperationStatusPending; {
			if time.Now().After(deadline) {
				t.Fatalf("creating %s: still %s", name, ev.OperationStatus)
			}
			time.Sleep(20 * time.Millisecond)
			st, err := client.GetResourceRequestStatus(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: ev.RequestToken})
			if err != nil {
				t.Fatal(err)
			}
			ev = st.ProgressEvent
		}
		if ev.OperationStatus != cctypes.OperationStatusSuccess {
			t.Fatalf("creating %s: %s %s", name, ev.OperationStatus, aws.ToString(ev.StatusMessage))
		}
	}
}

// stackIDs are the IDs of the stack's resources of type tok, sorted.
func stackIDs(t *testing.T, export, tok string) []string {
	t.Helper()
	var dep struct {
		Deployment struct {
			Resources []struct{ Type, ID string }
		}
	}
	if err := json.Unmarshal([]byte(export), &dep); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range dep.Deployment.Resources {
		if r.Type == tok {
			ids = append(ids, r.ID)
		}
	}
	sort.Strings(ids)
	return ids
}

// logGroupProgram declares the imported log groups under their import
// names, as their owner would write them to manage them from now on.
func logGroupProgram(f importfile.File, groups map[string]int) []byte {
	var b bytes.Buffer
	b.WriteString("name: discover\nruntime: yaml\nconfig:\n  awscc:region: us-east-1\nresources:\n")
	for _, r := range f.Resources {
		fmt.Fprintf(&b, "  %s:\n    type: %s\n    properties:\n      logGroupName: %q\n      retentionInDays: %d\n", r.Name, r.Type, r.ID, groups[r.ID])
	}
	return b.Bytes()
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
