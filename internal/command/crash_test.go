//go:build unix

package command

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// crashInstances is how many instances TestCrashMidApply applies.
const crashInstances = 2000

const crashConfig = `
variable "n" {
  type = number
}
variable "v" {
  type    = string
  default = "a"
}
resource "terraform_data" "many" {
  count = var.n
  input = "${var.v}-${count.index}"
}
`

// TestCrashMidApply SIGKILLs a cairn apply of many instances while it
// creates, updates and destroys them. After each kill, every instance the
// apply reported complete must be in the state as reported (read without
// changing anything), and the next apply must finish the job, leaving
// nothing to change.
func TestCrashMidApply(t *testing.T) {
	// Enough instances that the output after the kill point overflows the
	// pipe, so the child cannot finish before it is killed.
	const n = crashInstances
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(crashConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	nVar := fmt.Sprintf("-var=n=%d", n)
	kill := n / 3

	done := killAfter(t, work, "Creation complete", kill, "apply", "-auto-approve", nVar)
	checkCrashState(t, work, func(addr string, is *states.ResourceInstance) error {
		if done[addr] && (is == nil || is.Current == nil) {
			return fmt.Errorf("reported created, missing from state")
		}
		return nil
	})
	runCairn(t, work, 0, "apply", "-auto-approve", nVar)

	done = killAfter(t, work, "Modifications complete", kill, "apply", "-auto-approve", nVar, "-var=v=b")
	checkCrashState(t, work, func(addr string, is *states.ResourceInstance) error {
		if is == nil || is.Current == nil {
			return fmt.Errorf("missing from state after an update was interrupted")
		}
		if done[addr] && !bytes.Contains(is.Current.AttrsJSON, []byte(`"b-`)) {
			return fmt.Errorf("reported updated, state has %s", is.Current.AttrsJSON)
		}
		return nil
	})
	runCairn(t, work, 0, "apply", "-auto-approve", nVar, "-var=v=b")
	runCairn(t, work, 0, "plan", "-detailed-exitcode", nVar, "-var=v=b")

	done = killAfter(t, work, "Destruction complete", kill, "destroy", "-auto-approve", nVar, "-var=v=b")
	checkCrashState(t, work, func(addr string, is *states.ResourceInstance) error {
		if done[addr] && is != nil && is.Current != nil {
			return fmt.Errorf("reported destroyed, still in state")
		}
		return nil
	})
	runCairn(t, work, 0, "destroy", "-auto-approve", nVar, "-var=v=b")
	runCairn(t, work, 0, "apply", "-auto-approve", nVar, "-var=v=b")
	runCairn(t, work, 0, "plan", "-detailed-exitcode", nVar, "-var=v=b")
}

// killAfter runs cairn with args in dir, SIGKILLs it once want has been
// reported for count instances, and returns every instance it reported
// (including lines already written when it died).
func killAfter(t *testing.T, dir, want string, count int, args ...string) map[string]bool {
	t.Helper()
	cmd := exec.Command("cairn", append([]string{"-no-color"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		addr, rest, ok := strings.Cut(sc.Text(), ": ")
		if !ok || !strings.HasPrefix(rest, want) {
			continue
		}
		done[addr] = true
		if len(done) == count && !killed {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("cairn %v finished (%v) after reporting %d instances, before the kill at %d:\n%s", args, err, len(done), count, stderr.String())
	}
	t.Logf("cairn %s killed after %d %q", args[0], len(done), want)
	return done
}

// checkCrashState checks every instance of the state left behind, as a
// read-only command sees it, and that reading changed no file.
func checkCrashState(t *testing.T, dir string, check func(addr string, is *states.ResourceInstance) error) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.journal")); err != nil {
		t.Fatalf("no journal after the kill: %v", err)
	}
	before := dirContents(t, dir)
	runCairn(t, dir, 0, "state", "list")
	f, err := statemgr.NewFilesystem(filepath.Join(dir, "terraform.tfstate")).Read()
	if err != nil {
		t.Fatalf("reading the state after the kill: %v", err)
	}
	if after := dirContents(t, dir); after != before {
		t.Errorf("a read-only command changed the files after the crash")
	}
	seen := map[string]bool{}
	var bad []string
	f.State.AllInstances(func(a addrs.AbsResourceInstance, _ *states.Resource, is *states.ResourceInstance) {
		seen[a.String()] = true
		if err := check(a.String(), is); err != nil {
			bad = append(bad, a.String()+": "+err.Error())
		}
	})
	// Instances absent from state are checked too.
	for i := range crashInstances {
		addr := fmt.Sprintf("terraform_data.many[%d]", i)
		if !seen[addr] {
			if err := check(addr, nil); err != nil {
				bad = append(bad, addr+": "+err.Error())
			}
		}
	}
	if len(bad) > 0 {
		t.Fatalf("%d instances wrong after the kill, e.g. %v", len(bad), bad[:min(5, len(bad))])
	}
}

// dirContents returns the names and contents of the files in dir.
func dirContents(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		src, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "%s %d\n", e.Name(), len(src))
		b.Write(src)
	}
	return b.String()
}

// runCairn runs cairn with args in dir and checks its exit code.
func runCairn(t *testing.T, dir string, want int, args ...string) {
	t.Helper()
	cmd := exec.Command("cairn", append([]string{"-no-color"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("cairn %v exited %d, want %d:\n%s", args, got, want, stderr.String())
	}
}
