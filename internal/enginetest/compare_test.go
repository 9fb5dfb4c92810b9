package enginetest

// The Terraform comparison suite: each scenario under testdata/compare
// runs step by step with Cairn (in-process) and with the real Terraform
// 1.5.7 (as a process), each in its own directory, and the show -json
// documents of every plan and every state are compared after removing
// what differs on every run. docs/design/terraform-compare.md says how
// to add a scenario.

import (
	"bytes"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/command"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// compareTerraform finds Terraform 1.5.7 where the command package's
// tests look: CAIRN_TERRAFORM, then terraform on PATH, then GOPATH/bin,
// taking the first that is 1.5.7 (the scenarios pin its behaviour; a
// newer terraform on PATH is passed over). It returns "" when none is.
func compareTerraform() string {
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	onPath, _ := exec.LookPath("terraform")
	for _, p := range []string{os.Getenv("CAIRN_TERRAFORM"), onPath, filepath.Join(gopath, "bin", "terraform")} {
		if p == "" {
			continue
		}
		out, err := exec.Command(p, "version").Output()
		if err == nil && strings.HasPrefix(string(out), "Terraform v1.5.7") {
			return p
		}
	}
	return ""
}

// TestCompare runs the scenarios in testdata/compare against Cairn and
// Terraform 1.5.7. Those in testdata/compare/pending (features being
// built) run too when CAIRN_COMPARE_PENDING=1, and those in
// testdata/compare/known (differences waiting for a fix) when
// CAIRN_COMPARE_KNOWN=1. CAIRN_COMPARE_VERBOSE=1 logs Terraform's
// normalised documents.
func TestCompare(t *testing.T) {
	tf := compareTerraform()
	if tf == "" {
		t.Skip("Terraform 1.5.7 not found (set CAIRN_TERRAFORM)")
	}
	runSuite(t, "testdata/compare", reference{name: "Terraform", path: tf})
}

// TestCompareTofu runs the scenarios in testdata/compare-tofu (features
// added after Terraform 1.5 that OpenTofu has) against Cairn and
// OpenTofu 1.12.6, the same way TestCompare runs Terraform 1.5.7, with
// pending/ and known/ under the same variables.
func TestCompareTofu(t *testing.T) {
	tofu := compareTofu()
	if tofu == "" {
		t.Skip("OpenTofu 1.12.6 not found (set CAIRN_TOFU)")
	}
	runSuite(t, "testdata/compare-tofu", reference{name: "OpenTofu", path: tofu, tofu: true})
}

// compareTofu is CAIRN_TOFU when it is OpenTofu 1.12.6, else "".
func compareTofu() string {
	p := os.Getenv("CAIRN_TOFU")
	if p == "" {
		return ""
	}
	cmd := exec.Command(p, "version")
	cmd.Env = append(os.Environ(), "TOFU_CLI_CONFIG_FILE=/dev/null", "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "OpenTofu v1.12.6\n") {
		return ""
	}
	return p
}

// reference is the real tool a suite compares Cairn with.
type reference struct {
	name string // "Terraform", "OpenTofu": in failure messages
	path string
	// tofu: OpenTofu installs providers named hashicorp/NAME from
	// registry.opentofu.org, so its plugin mirror uses that host.
	tofu bool
}

// runSuite runs every scenario under dir (and dir/pending, dir/known
// when asked) against Cairn and ref, in parallel.
func runSuite(t *testing.T, dir string, ref reference) {
	globs := []string{dir + "/*.txtar"}
	if os.Getenv("CAIRN_COMPARE_PENDING") == "1" {
		globs = append(globs, dir+"/pending/*.txtar")
	}
	if os.Getenv("CAIRN_COMPARE_KNOWN") == "1" {
		globs = append(globs, dir+"/known/*.txtar")
	}
	var forks sync.RWMutex
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := strings.TrimSuffix(strings.TrimPrefix(f, dir+"/"), ".txtar")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				sc, err := parseScenario(f)
				if err != nil {
					t.Fatal(err)
				}
				runComparison(t, sc, ref, &forks)
			})
		}
	}
}

// compareScenario is one parsed txtar file: steps in order.
type compareScenario struct {
	steps []compareStep
	// plugins names the real provider plugins the scenario uses (random,
	// time, local), from its "plugins" file: both tools install them with
	// init -plugin-dir from a mirror of the test providers.
	plugins []string
	// random names, per resource type, the attributes whose values are
	// random (random_pet's id), from its "random" file of lines
	// "TYPE ATTR...": their values are compared by where they came from.
	random map[string][]string
	// checkStatusOnly: the reference is OpenTofu, whose check problems
	// are worded differently (see normaliser.checkStatusOnly).
	checkStatusOnly bool
}

// compareStep holds the files written before the step (.tf files
// replace the previous step's) and its command lines.
type compareStep struct {
	files map[string][]byte
	cmds  []string
}

// parseScenario reads a scenario: files named "N/PATH" belong to step N
// (1, 2, ...), and "N/cmd" holds the step's commands, one a line
// ("apply" when absent).
func parseScenario(path string) (*compareScenario, error) {
	a, err := txtar.ParseFile(path)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(a.Comment)) == 0 {
		return nil, fmt.Errorf("%s: no comment saying which Terraform behaviour it pins", path)
	}
	byNum := map[int]*compareStep{}
	var plugins []string
	random := map[string][]string{}
	for _, f := range a.Files {
		switch f.Name {
		case "plugins":
			plugins = strings.Fields(string(f.Data))
			continue
		case "random":
			for _, line := range strings.Split(string(f.Data), "\n") {
				if fs := strings.Fields(line); len(fs) > 1 {
					random[fs[0]] = append(random[fs[0]], fs[1:]...)
				}
			}
			continue
		}
		num, rest, ok := strings.Cut(f.Name, "/")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 1 {
			return nil, fmt.Errorf("%s: file %q: names must start with a step number and a slash", path, f.Name)
		}
		st := byNum[n]
		if st == nil {
			st = &compareStep{files: map[string][]byte{}}
			byNum[n] = st
		}
		if rest == "cmd" {
			for _, line := range strings.Split(string(f.Data), "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
					st.cmds = append(st.cmds, line)
				}
			}
			continue
		}
		st.files[rest] = f.Data
	}
	sc := &compareScenario{plugins: plugins, random: random}
	for n := 1; n <= len(byNum); n++ {
		st := byNum[n]
		if st == nil {
			return nil, fmt.Errorf("%s: steps must be numbered 1 to %d; %d is missing", path, len(byNum), n)
		}
		if len(st.cmds) == 0 {
			st.cmds = []string{"apply"}
		}
		sc.steps = append(sc.steps, *st)
	}
	return sc, nil
}

// tool runs one command in a directory and returns its stdout, stderr
// and exit code, or an error when the command could not run at all.
type tool func(dir string, args []string) (stdout, stderr []byte, code int, err error)

// cairnTool runs Cairn in-process, with an empty environment so that no
// TF_ variable of the caller's leaks in, holding forks for reading (see
// terraformTool).
func cairnTool(forks *sync.RWMutex) tool {
	return func(dir string, args []string) ([]byte, []byte, int, error) {
		forks.RLock()
		defer forks.RUnlock()
		var stdout, stderr bytes.Buffer
		code := command.Run(append([]string{"-chdir=" + dir}, args...), command.Streams{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
		})
		return stdout.Bytes(), stderr.Bytes(), code, nil
	}
}

// terraformTool runs the reference binary at path (Terraform or
// OpenTofu) without a CLI configuration or version check, so it works
// offline. It starts the
// process holding forks for writing, so never while a Cairn command runs
// in this process: a child between fork and exec holds copies of the
// parent's descriptors, and with them the open file description locks
// Cairn takes on state files, so a Cairn command releasing its lock by
// closing the file would leave it held until the child execs, and the
// next command would find the state locked. Cairn's CLI is one process
// per command, where this cannot happen; only the in-process harness
// needs it.
func terraformTool(path string, forks *sync.RWMutex) tool {
	return func(dir string, args []string) ([]byte, []byte, int, error) {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(path, args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader("")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=/dev/null",
			"TOFU_CLI_CONFIG_FILE=/dev/null", "TF_INPUT=0")
		forks.Lock()
		err := cmd.Start()
		forks.Unlock()
		if err == nil {
			err = cmd.Wait()
		}
		if ee, ok := err.(*exec.ExitError); ok {
			return stdout.Bytes(), stderr.Bytes(), ee.ExitCode(), nil
		} else if err != nil {
			return nil, nil, 0, fmt.Errorf("%s %s: %w", filepath.Base(path), strings.Join(args, " "), err)
		}
		return stdout.Bytes(), stderr.Bytes(), 0, nil
	}
}

// runComparison runs the scenario with both tools at once (the
// reference mostly waits on its process) and compares their records
// step by step.
func runComparison(t *testing.T, sc *compareScenario, ref reference, forks *sync.RWMutex) {
	var cairn, terraform []stepRecord
	var cairnErr, tfErr error
	cairnDir, tfDir := t.TempDir(), t.TempDir()
	var initArgs []string
	if len(sc.plugins) > 0 {
		initArgs = []string{"-plugin-dir=" + pluginMirror(t, sc.plugins, ref.tofu)}
	}
	sc.checkStatusOnly = ref.tofu
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		terraform, tfErr = runSteps(sc, tfDir, terraformTool(ref.path, forks), true, initArgs)
	}()
	cairn, cairnErr = runSteps(sc, cairnDir, cairnTool(forks), false, initArgs)
	wg.Wait()
	if tfErr != nil {
		t.Fatalf("%s: %v", ref.name, tfErr)
	}
	if cairnErr != nil {
		t.Fatalf("Cairn: %v", cairnErr)
	}
	for i := range terraform {
		if i >= len(cairn) {
			t.Fatalf("Cairn stopped after %d commands; %s ran %s next", len(cairn), ref.name, terraform[i].label)
		}
		want, got := terraform[i], cairn[i]
		if os.Getenv("CAIRN_COMPARE_VERBOSE") == "1" {
			t.Logf("step %d, %s: %v", want.step, want.label, want.compared())
		}
		if diff := cmp.Diff(want.compared(), got.compared()); diff != "" {
			t.Errorf("step %d, %s (-%s +cairn):\n%s%s%s", want.step, want.label, strings.ToLower(ref.name), diff,
				stderrNote(ref.name, want.stderr), stderrNote("Cairn", got.stderr))
			// Once the runs took different paths, later records only
			// repeat the consequences of this difference.
			if want.label != got.label || want.code != got.code {
				t.FailNow()
			}
		}
	}
	if len(cairn) > len(terraform) {
		t.Errorf("Cairn ran %d commands, %s %d; Cairn's next was %s", len(cairn), ref.name, len(terraform), cairn[len(terraform)].label)
	}
}

// stepRecord is what one command of a step left to compare: its exit
// code and, for show -json, the normalised document.
type stepRecord struct {
	step   int
	label  string
	code   int
	doc    any
	stderr string
}

// compared is the part of a record the tools must agree on.
func (r stepRecord) compared() any {
	return map[string]any{"command": r.label, "exit": r.code, "json": r.doc}
}

// stderrNote shows a tool's stderr under a diff, when it wrote any.
func stderrNote(tool, stderr string) string {
	if strings.TrimSpace(stderr) == "" {
		return ""
	}
	const max = 2000
	if len(stderr) > max {
		stderr = stderr[:max] + "..."
	}
	return "\n" + tool + " stderr:\n" + stderr
}
