package command

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/testproviders"
)

// TestTestCommandAgainstOpenTofu runs the test files of each directory
// of testdata/testcompare through OpenTofu 1.12.6's "tofu test" and
// through "cairn test", and compares what a person and a CI system read:
// each file's status and its runs' statuses in order, the summary line,
// the exit code, the summaries of the diagnostics in order, and with
// -json every run's status and the test_summary object. Normalised: the
// tool's name, Terraform 1.7+'s "in progress" and "tearing down" lines
// (Cairn prints them; OpenTofu 1.12 does not, and prints a file's line
// before its runs, not after). Skipped without OpenTofu.
func TestTestCommandAgainstOpenTofu(t *testing.T) {
	tofu, ok := testproviders.OpenTofu()
	if !ok {
		t.Skip("OpenTofu is not installed (scripts/install-opentofu.sh; CAIRN_TOFU)")
	}
	// Both tools run without a CLI configuration: Cairn in this process
	// reads TF_CLI_CONFIG_FILE as tofu does, and one the machine names
	// but lacks would add a warning to Cairn's output alone.
	t.Setenv("TF_CLI_CONFIG_FILE", "/dev/null")
	cases, err := os.ReadDir("testdata/testcompare")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata/testcompare", c.Name()))); err != nil {
				t.Fatal(err)
			}
			if out, code := runTofu(t, tofu, dir, "init", "-no-color"); code != 0 {
				t.Fatalf("tofu init exited %d:\n%s", code, out)
			}
			for _, args := range [][]string{{"test", "-no-color"}, {"test", "-json"}} {
				tofuOut, tofuCode := runTofu(t, tofu, dir, args...)
				var out, errOut bytes.Buffer
				cairnCode := Run(append([]string{"-chdir=" + dir}, args...), Streams{Stdout: &out, Stderr: &errOut})
				if tofuCode != cairnCode {
					t.Errorf("%v: exit %d, OpenTofu %d", args, cairnCode, tofuCode)
				}
				summarize := summarizeHuman
				if args[1] == "-json" {
					summarize = summarizeJSON
				}
				want, got := summarize(tofuOut), summarize(out.String()+errOut.String())
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%v (-OpenTofu +Cairn):\n%s\nOpenTofu's output:\n%s\nCairn's:\n%s%s", args, diff, tofuOut, out.String(), errOut.String())
				}
			}
		})
	}
}

// runTofu runs OpenTofu in dir with no CLI configuration and returns its
// stdout and stderr together, and its exit code.
func runTofu(t *testing.T, tofu, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(tofu, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}

// summarizeHuman reduces human output to what both tools must agree on:
// per file (in the order run) "FILE: STATUS" then its runs' lines, the
// summary line, and the "Error: ..." and "Warning: ..." summaries.
func summarizeHuman(s string) []string {
	var files []string
	seen := map[string]bool{}
	byFile := map[string][]string{}
	fileStatus := map[string]string{}
	var current string
	var diags []string
	var summary string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "  run "):
			byFile[current] = append(byFile[current], strings.TrimSpace(line))
		case strings.HasPrefix(line, "Error: "), strings.HasPrefix(line, "Warning: "):
			if !strings.Contains(line, "CLI configuration") {
				diags = append(diags, line)
			}
		case strings.HasPrefix(line, "Success!"), strings.HasPrefix(line, "Failure!"), strings.HasPrefix(line, "Executed 0"):
			summary = line
		case strings.Contains(line, ".tftest.") || strings.Contains(line, ".tofutest."):
			name, status, ok := strings.Cut(line, "... ")
			if !ok || strings.Contains(name, " ") {
				continue
			}
			if !seen[name] {
				seen[name] = true
				files = append(files, name)
			}
			current = name
			if status != "in progress" && status != "tearing down" {
				fileStatus[name] = status
			}
		}
	}
	var out []string
	for _, f := range files {
		out = append(out, f+": "+fileStatus[f])
		out = append(out, byFile[f]...)
	}
	return append(append(out, summary), diags...)
}

// summarizeJSON reduces a -json stream to each run's final status (by
// file, in order), the test_summary object and the diagnostics'
// summaries with the run they belong to.
func summarizeJSON(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var msg map[string]any
		if json.Unmarshal(sc.Bytes(), &msg) != nil {
			continue
		}
		switch msg["type"] {
		case "test_run":
			r, _ := msg["test_run"].(map[string]any)
			if status, ok := r["status"]; ok {
				out = append(out, "run "+r["path"].(string)+"/"+r["run"].(string)+": "+status.(string)+" ("+msg["@message"].(string)+")")
			}
		case "test_file":
			f, _ := msg["test_file"].(map[string]any)
			if status, ok := f["status"]; ok {
				out = append(out, "file "+f["path"].(string)+": "+status.(string)+" ("+msg["@message"].(string)+")")
			}
		case "test_summary":
			b, _ := json.Marshal(msg["test_summary"])
			out = append(out, "summary "+string(b)+" "+msg["@message"].(string))
		case "diagnostic":
			d, _ := msg["diagnostic"].(map[string]any)
			run, _ := msg["@testrun"].(string)
			out = append(out, "diagnostic "+run+": "+d["summary"].(string))
		}
	}
	// OpenTofu reports a file before its runs, Terraform and Cairn after:
	// the order of files and of runs within a file is what matters.
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

func rank(line string) int {
	switch {
	case strings.HasPrefix(line, "file "):
		return 0
	case strings.HasPrefix(line, "summary "):
		return 2
	}
	return 1
}
