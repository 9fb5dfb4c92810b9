//go:build linux

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

// asCairn is the environment variable under which this test binary runs
// as cairn itself: every package cairn links is linked here too, so
// their initialisation runs as it does in the real binary.
const asCairn = "CAIRN_TEST_AS_CAIRN"

func TestMain(m *testing.M) {
	if os.Getenv(asCairn) == "1" {
		os.Exit(run())
	}
	os.Exit(m.Run())
}

// TestVersionOnSilentTerminal runs "cairn version" with a pseudo-terminal
// as its controlling terminal, stdin, stdout and stderr, a terminal that
// never answers a query (as under script, expect or some CI). A package
// that probes the terminal at start-up (the TUI library the Pulumi SDK
// brings queries the background colour) writes its query there and waits
// five seconds for an answer, swallowing what the user types meanwhile.
// Nothing may be written but the version, exactly as it is on a pipe.
func TestVersionOnSilentTerminal(t *testing.T) {
	want := runOnPipe(t)
	got := runOnTerminal(t)
	// The terminal turns each \n into \r\n.
	got = strings.ReplaceAll(got, "\r\n", "\n")
	if got != want {
		t.Errorf("cairn version on a terminal wrote\n%q\nwant only what it writes on a pipe\n%q", got, want)
	}
}

func cairnCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asCairn+"=1", "TERM=xterm-256color")
	return cmd
}

func runOnPipe(t *testing.T) string {
	t.Helper()
	out, err := cairnCommand("version").Output()
	if err != nil {
		t.Fatalf("cairn version: %v", err)
	}
	if !bytes.HasPrefix(out, []byte("Cairn v")) {
		t.Fatalf("cairn version wrote %q", out)
	}
	return string(out)
}

// runOnTerminal runs cairn version in a session of its own whose
// controlling terminal is a new pseudo-terminal, and returns all it
// wrote there. Nothing ever answers on the terminal's other side.
func runOnTerminal(t *testing.T) string {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	cmd := cairnCommand("version")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	out, err := io.ReadAll(ptmx)
	// Linux reports the other side closed (the process gone) as EIO.
	if err != nil && !errors.Is(err, syscall.EIO) {
		t.Fatalf("reading the terminal: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("cairn version on a terminal: %v; wrote %q", err, out)
	}
	return string(out)
}
