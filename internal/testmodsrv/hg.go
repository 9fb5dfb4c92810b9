package testmodsrv

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// hgListening is the line hg serve prints once it listens.
var hgListening = regexp.MustCompile(`bound to (127\.0\.0\.1:\d+)`)

// AddHgRepo makes a Mercurial repository of files with tag (unless
// empty) and serves it with "hg serve" on loopback until the test ends.
// It returns the repository's URL, http://127.0.0.1:PORT/: plain HTTP,
// because hg reads its CA from its own configuration, not the
// environment. The test is skipped when hg is not installed.
func AddHgRepo(t testing.TB, files map[string]string, tag string) string {
	t.Helper()
	if _, err := exec.LookPath("hg"); err != nil {
		t.Skip("hg is not installed")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	hg(t, "", "init", dir)
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hg(t, dir, "add", "-q")
	hg(t, dir, "commit", "-q", "-u", "test", "-m", "commit")
	if tag != "" {
		hg(t, dir, "tag", "-q", "-u", "test", tag)
	}
	cmd := exec.Command("hg", "serve", "-a", "127.0.0.1", "-p", "0")
	cmd.Dir = dir
	cmd.Env = hgEnv(dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := hgListening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a + "/"
	case <-time.After(10 * time.Second):
		t.Fatal("hg serve did not start")
		return ""
	}
}

func hg(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("hg", args...)
	cmd.Dir = dir
	cmd.Env = hgEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hg %v: %v\n%s", args, err, out)
	}
}

// hgEnv is the test's environment without the user's Mercurial
// configuration.
func hgEnv(dir string) []string {
	return append(os.Environ(), "HGRCPATH=", "HGPLAIN=1", "HOME="+dir)
}
