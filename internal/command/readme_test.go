package command

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// readmeBlocks classifies every sh block of the README by a line it
// holds: run (reason empty) or not, with the reason. A block none
// matches fails TestReadme, so a new example is run or said not to be.
var readmeBlocks = []struct{ marker, reason string }{
	{"make quickstart", ""},
	{"go install ./cmd/cairn", ""},
	{"pulumi up --yes", ""}, // needs the Pulumi CLI (below)
	{"cairn plan -out=tfplan", "runs in a configuration directory; TestScripts/show_html runs it"},
	{"filesystem_mirror { path", "needs the mirror the prose describes; TestScripts/plugin_providers runs it"},
	{"dev_overrides", "needs Terraform and a configuration; TestScripts/provider_serve_terraform runs it"},
	{"pulumi plugin install", "needs a Pulumi project; TestScripts/pulumi_parameterize runs it"},
	{"kubectl apply -f", "needs a Kubernetes cluster and kubectl; TestScripts/controller_awscc runs the same steps on a real kube-apiserver"},
	{"cairn init      # downloads", "needs AWS and the public registries; TestProviderRegistryScripts, TestModuleScripts and TestS3Scripts run the same steps against loopback registry, git and S3 servers"},
	{"versitygw --port", ""}, // needs versitygw (below)
	{"createdb ", "needs a PostgreSQL server; TestPgScripts (testdata/pgscript) runs it"},
	{"cairn workspace new staging", "needs the pg backend's database; TestPgScripts (testdata/pgscript) runs it"},
	{"export TF_VAR_state_passphrase", "needs a configuration with an encryption block; TestScripts/encryption runs it"},
}

// readmeSkips are lines of a block that runs that the test leaves out,
// by their start, with the reason.
var readmeSkips = map[string]string{
	"make test ": "the whole test suite, which this test is part of",
	"go install github.com/versity/versitygw": "the test runs the versitygw make test builds (scripts/install-versitygw.sh)",
}

// readmeNeeds are blocks run only where their tools are, by a line they
// hold, with what they need.
var readmeNeeds = map[string]string{
	"pulumi up --yes":  "pulumi",
	"versitygw --port": "versitygw",
}

// TestReadme runs the README's shell blocks as a new user would, exactly
// as written, from the root of the clone with a home of its own: the
// quickstart, the "directory of your own" steps and, with the Pulumi CLI
// built (scripts/install-pulumi.sh), the Pulumi example. The Kubernetes
// block needs kubectl and a cluster and is skipped (TestScripts/
// controller_awscc runs it). A command that fails fails the test.
func TestReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs cairn as the README does")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeShellBlocks(t, filepath.Join(root, "README.md"))
	home := t.TempDir()
	env := readmeEnv(t, home)
	for i, b := range blocks {
		reason, ok := readmeBlockReason(b)
		if !ok {
			t.Errorf("README block %d (%q) is in no entry of readmeBlocks: run it or say why not", i, b[0])
			continue
		}
		if reason != "" {
			t.Logf("block %d: not run: %s", i, reason)
			continue
		}
		script, skipped := readmeScript(b)
		for _, s := range skipped {
			t.Logf("block %d: not run: %s", i, s)
		}
		if strings.TrimSpace(script) == "" {
			continue
		}
		if need := readmeNeed(b); need != "" {
			if _, err := exec.LookPath(need); err != nil && !readmeHas(env, need) {
				t.Logf("block %d: skipped: needs %s", i, need)
				continue
			}
		}
		t.Logf("block %d: running", i)
		cmd := exec.Command("bash", "-c", "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true; wait' EXIT\n"+script)
		cmd.Dir, cmd.Env = root, env
		cmd.Stdin = strings.NewReader("yes\n")
		timer := time.AfterFunc(10*time.Minute, func() { cmd.Process.Kill() })
		out, err := cmd.CombinedOutput()
		timer.Stop()
		if err == nil {
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			t.Logf("block %d: ran, %d lines of output, the last: %s", i, len(lines), lines[len(lines)-1])
		}
		if err != nil {
			t.Fatalf("README block %d failed: %v\n--- script\n%s\n--- output\n%s", i, err, script, out)
		}
	}
}

// readmeShellBlocks returns the sh blocks of the README, each as lines.
func readmeShellBlocks(t *testing.T, path string) [][]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks [][]string
	var cur []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case !in && l == "```sh":
			in, cur = true, nil
		case in && l == "```":
			in = false
			blocks = append(blocks, cur)
		case in:
			cur = append(cur, l)
		}
	}
	if len(blocks) == 0 {
		t.Fatal("no sh blocks in the README")
	}
	return blocks
}

// readmeScript returns the lines of b the test runs, and the reasons of
// those it leaves out. A here-document runs whole with the line that
// opens it.
func readmeScript(b []string) (string, []string) {
	var run strings.Builder
	var skipped []string
	heredoc, cont := "", false
	for _, l := range b {
		if cont {
			// The continuation of a line left out.
			cont = strings.HasSuffix(l, "\\")
			continue
		}
		if heredoc != "" {
			run.WriteString(l + "\n")
			if l == heredoc {
				heredoc = ""
			}
			continue
		}
		if reason := readmeSkip(l); reason != "" {
			skipped = append(skipped, strings.TrimSpace(l)+": "+reason)
			cont = strings.HasSuffix(l, "\\")
			continue
		}
		if _, tag, ok := strings.Cut(l, "<<'"); ok {
			heredoc, _, _ = strings.Cut(tag, "'")
		}
		run.WriteString(l + "\n")
	}
	return run.String(), skipped
}

func readmeSkip(line string) string {
	for start, reason := range readmeSkips {
		if strings.HasPrefix(line+"\n", start) {
			return reason
		}
	}
	return ""
}

// readmeBlockReason returns why block b is not run ("" when it is run),
// and false when no entry of readmeBlocks matches it.
func readmeBlockReason(b []string) (string, bool) {
	for _, l := range b {
		for _, c := range readmeBlocks {
			if strings.Contains(l, c.marker) {
				return c.reason, true
			}
		}
	}
	return "", false
}

func readmeNeed(b []string) string {
	for _, l := range b {
		for marker, need := range readmeNeeds {
			if strings.Contains(l, marker) {
				return need
			}
		}
	}
	return ""
}

// readmeHas reports whether the test environment's PATH has the tool.
func readmeHas(env []string, tool string) bool {
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(p) {
				if st, err := os.Stat(filepath.Join(d, tool)); err == nil && !st.IsDir() {
					return true
				}
			}
		}
	}
	return false
}

// readmeEnv is a new user's environment: a home of its own, where
// go install puts cairn (on PATH, as the README asks), the Go caches
// kept so nothing is built twice, and the Pulumi CLI on PATH when
// scripts/install-pulumi.sh built it.
func readmeEnv(t *testing.T, home string) []string {
	goenv := func(k string) string {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	gobin := filepath.Join(home, "go", "bin")
	path := gobin + string(os.PathListSeparator) + os.Getenv("PATH")
	if dir, ok := testproviders.Pulumi(); ok {
		path = dir + string(os.PathListSeparator) + path
	}
	if vgw := os.Getenv(tests3.EnvBinary); vgw != "" {
		path = filepath.Dir(vgw) + string(os.PathListSeparator) + path
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "AWS_") || strings.HasPrefix(k, "TF_") || strings.HasPrefix(k, "CAIRN_") || strings.HasPrefix(k, "PULUMI_") || k == "HOME" || k == "PATH" || k == "XDG_CACHE_HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "PATH="+path, "GOBIN="+gobin,
		"GOCACHE="+goenv("GOCACHE"), "GOMODCACHE="+goenv("GOMODCACHE"), "GOPATH="+goenv("GOPATH"),
		// Pulumi finds its home through the user database, not HOME.
		"PULUMI_HOME="+filepath.Join(home, ".pulumi"),
		"CHECKPOINT_DISABLE=1", "PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true", "PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true")
}
