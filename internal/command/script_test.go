package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
	"github.com/cairn-iac/cairn/internal/tfplugins"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets test scripts run "cairn" in-process as a real command,
// plus a helper that holds the state lock from another process.
func TestMain(m *testing.M) {
	testscript.Main(stopPgAfter{m}, map[string]func(){
		"cairn":            func() { os.Exit(Run(os.Args[1:], Streams{})) },
		"cairn-holdlock":   holdLock,
		"cairn-pgholdlock": pgHoldLock,
		"cairn-s3holdlock": s3HoldLock,
		// The plugin binary Terraform launches, as cmd/terraform-provider-awscc
		// builds it.
		"terraform-provider-awscc": func() {
			os.Exit(tfplugins.Main(os.Args[1:], os.Getenv, os.Stderr))
		},
		// The Pulumi plugins, as cmd/pulumi-resource-awscc and
		// cmd/pulumi-resource-terraform build them.
		"pulumi-resource-awscc": func() {
			os.Exit(Run(append([]string{"provider", "serve", "-protocol", "pulumi", "awscc"}, os.Args[1:]...), Streams{}))
		},
		"pulumi-resource-terraform": func() {
			os.Exit(Run(append([]string{"provider", "serve", "-protocol", "pulumi", "terraform"}, os.Args[1:]...), Streams{}))
		},
		// The same binary run as the parameterized plugins.
		"pulumi-resource-terraform-provider": func() {
			os.Exit(Run(append([]string{"provider", "serve", "-protocol", "pulumi", "terraform-provider"}, os.Args[1:]...), Streams{}))
		},
		"pulumi-resource-terraform-module": func() {
			os.Exit(Run(append([]string{"provider", "serve", "-protocol", "pulumi", "terraform-module"}, os.Args[1:]...), Streams{}))
		},
		// A provider plugin that crashes, hangs or plans what it may not,
		// on demand (see internal/testproviders/cairntest).
		"terraform-provider-cairntest": func() {
			if err := cairntest.Serve(); err != nil {
				os.Exit(1)
			}
			os.Exit(0)
		},
		// The same provider over protocol 5, as cairn/cairntest5.
		"terraform-provider-cairntest5": func() {
			if err := cairntest.ServeV5(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		},
	})
}

// holdLock takes the lock of the state at args[1], writes a "locked" file
// beside it, and holds the lock for the duration args[2]. An optional
// args[3] is the lock ID (force-unlock scripts need to know it).
func holdLock() {
	d, err := time.ParseDuration(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	info := statemgr.LockInfo{Operation: "OperationTypeApply", Who: "holder@test"}
	if len(os.Args) > 3 {
		info.ID = os.Args[3]
	}
	mgr := statemgr.NewFilesystem(os.Args[1])
	unlock, err := mgr.Lock(context.Background(), info, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.WriteFile("locked", nil, 0o600)
	time.Sleep(d)
	unlock()
}

// TestScripts runs the CLI end-to-end scripts in testdata/script: each
// holds a configuration, the commands, their expected output and exit
// codes.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CHECKPOINT_DISABLE", "1")
			// Each script gets its own cache (provider schemas), never
			// the user's.
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			if dir := cfnSchemasDir(); dir != "" {
				env.Setenv("CFN_SCHEMAS", dir)
			}
			if dir := testProvidersDir(); dir != "" {
				env.Setenv("TEST_PROVIDERS", dir)
			}
			// OpenTofu, when scripts/install-opentofu.sh has built it, is
			// on the scripts' PATH as tofu ([exec:tofu]).
			if tofu, ok := testproviders.OpenTofu(); ok {
				env.Setenv("PATH", filepath.Dir(tofu)+string(os.PathListSeparator)+env.Getenv("PATH"))
			}
			setPulumiEnv(env)
			return nil
		},
		// [cfnschemas]: the CloudFormation schema corpus is available in
		// $CFN_SCHEMAS.
		Condition: func(cond string) (bool, error) {
			if cond == "cfnschemas" {
				return cfnSchemasDir() != "", nil
			}
			if cond == "kube" {
				return kubeInstalled(), nil
			}
			if cond == "testproviders" {
				return testProvidersDir() != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":     cmdExitCode,
			"waitfile":     cmdWaitFile,
			"repeat":       cmdRepeat,
			"endpoint":     cmdEndpoint,
			"sleep":        cmdSleep,
			"envfile":      cmdEnvFile,
			"kube":         cmdKube,
			"eventually":   cmdEventually,
			"cmpterraform": cmdCmpTerraform,
		},
	})
}

// cmdExitCode runs a command and checks its exit code:
// exitcode 2 cairn plan -detailed-exitcode
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("bad exit code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if err != nil {
		msg := err.Error()
		i := strings.LastIndex(msg, "exit status ")
		if i < 0 {
			ts.Fatalf("running %s: %v", args[1], err)
		}
		got, _ = strconv.Atoi(strings.TrimSpace(msg[i+len("exit status "):]))
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// cmdEnvFile sets an environment variable to a file's content:
// envfile AWS_ENDPOINT_URL url.
func cmdEnvFile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: envfile NAME FILE")
	}
	ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile(args[1])))
}

// cmdSleep pauses the script: sleep 500ms.
func cmdSleep(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: sleep DURATION")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	time.Sleep(d)
}

// cmdWaitFile waits up to 10 seconds for a file to appear.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s did not appear", args[0])
}

// cmdRepeat appends TEXT to FILE COUNT times, for inputs too large to
// write out in a script (deep nesting, thousands of blocks). In TEXT,
// "\n" is a newline and "%d" the repetition number from 0.
//
//	repeat main.tf '(' 70000
func cmdRepeat(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: repeat FILE TEXT COUNT")
	}
	text := strings.ReplaceAll(args[1], `\n`, "\n")
	n, err := strconv.Atoi(args[2])
	if err != nil {
		ts.Fatalf("bad count %q", args[2])
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	defer f.Close()
	var b strings.Builder
	for i := range n {
		if strings.Contains(text, "%d") {
			b.WriteString(strings.ReplaceAll(text, "%d", strconv.Itoa(i)))
		} else {
			b.WriteString(text)
		}
	}
	_, err = f.WriteString(b.String())
	ts.Check(err)
}

// testProvidersDir is where scripts/build-test-providers.sh put the real
// hashicorp time, random and local plugins, or "" when they are not
// there.
func testProvidersDir() string {
	if _, built := testproviders.Binary("random"); !built {
		return ""
	}
	return testproviders.Dir()
}

// setPulumiEnv puts the Pulumi CLI and YAML host on a script's PATH when
// scripts/install-pulumi.sh has built them ([exec:pulumi]), with a
// private home, a local file backend and a passphrase, never the user's.
func setPulumiEnv(env *testscript.Env) {
	dir, ok := testproviders.Pulumi()
	if !ok {
		return
	}
	env.Setenv("PATH", dir+string(os.PathListSeparator)+env.Getenv("PATH"))
	env.Setenv("PULUMI_HOME", filepath.Join(env.WorkDir, ".pulumi"))
	env.Setenv("PULUMI_BACKEND_URL", "file://"+filepath.Join(env.WorkDir, ".pulumi-state"))
	env.Setenv("PULUMI_CONFIG_PASSPHRASE", "cairn-test")
	env.Setenv("PULUMI_SKIP_UPDATE_CHECK", "true")
	env.Setenv("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION", "true")
	env.Setenv("PULUMI_DIY_BACKEND_NO_LEGACY_WARNING", "true")
}
