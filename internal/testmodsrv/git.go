package testmodsrv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// AddGitCommit commits files (replacing the whole tree) to the main
// branch of repository NAME, creating it, tags the commit with tag
// (unless empty), and publishes it at URL/git/NAME.git. It returns that
// URL.
func (s *Server) AddGitCommit(t testing.TB, name string, files map[string]string, tag string) string {
	t.Helper()
	work := filepath.Join(s.dir, "work", name)
	bare := filepath.Join(s.dir, "git", name+".git")
	if _, err := os.Stat(work); err != nil {
		s.git(t, "", "init", "-q", "-b", "main", work)
		s.git(t, "", "init", "-q", "--bare", "-b", "main", bare)
	}
	s.git(t, work, "rm", "-rq", "--ignore-unmatch", ".")
	for rel, body := range files {
		p := filepath.Join(work, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.git(t, work, "add", "-A")
	s.git(t, work, "commit", "-qm", "commit", "--allow-empty")
	if tag != "" {
		s.git(t, work, "tag", tag)
	}
	s.git(t, work, "push", "-q", "--tags", bare, "main")
	return s.URL + "/git/" + name + ".git"
}

func (s *Server) git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+s.dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
