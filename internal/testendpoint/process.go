package testendpoint

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/testprocess"
)

// urlWait is how long Start waits for the endpoint to write its URL: it
// loads the built-in schemas first.
const urlWait = time.Minute

// Process is `cairn cloudcontrol serve` running as its own process.
type Process struct {
	// URL is where the endpoint listens: http://127.0.0.1:PORT.
	URL    string
	cmd    *exec.Cmd
	client *http.Client
}

// Start builds cmd/cairn into a temporary directory, starts its endpoint
// on 127.0.0.1:0 with a store of its own and no call log (-log off),
// waits for its URL and stops it at tb's cleanup. extraArgs are added to
// the command line (-latency 2s, -rtt 50ms, -rate 100, ...).
func Start(tb testing.TB, extraArgs ...string) *Process {
	tb.Helper()
	dir := tb.TempDir()
	testprocess.Build(tb, dir, "github.com/cairn-iac/cairn/cmd/cairn")
	urlFile := filepath.Join(dir, "url")
	args := append([]string{"cloudcontrol", "serve", "-addr", "127.0.0.1:0", "-data", filepath.Join(dir, "data"),
		"-url-file", urlFile, "-log", "off"}, extraArgs...)
	p := &Process{cmd: exec.Command(filepath.Join(dir, "cairn"), args...), client: &http.Client{Timeout: 30 * time.Second}}
	var stderr bytes.Buffer
	p.cmd.Stderr = &stderr
	if err := p.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(exited) }()
	tb.Cleanup(func() { _ = p.cmd.Process.Kill(); <-exited })
	url, err := waitURL(urlFile, exited, urlWait)
	if err != nil {
		select {
		case <-exited: // stderr is whole and no longer written
			tb.Fatalf("%v\n%s", err, stderr.Bytes())
		default:
			tb.Fatal(err)
		}
	}
	p.URL = url
	return p
}

// waitURL polls for the URL file the endpoint writes (whole, through a
// rename) once it listens, until the process exits or wait passes.
func waitURL(path string, exited <-chan struct{}, wait time.Duration) (string, error) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(path); err == nil {
			return string(b), nil
		}
		select {
		case <-exited:
			return "", fmt.Errorf("the endpoint exited before it wrote its URL")
		case <-deadline.C:
			return "", fmt.Errorf("the endpoint wrote no URL in %s", wait)
		case <-tick.C:
		}
	}
}

// PID is the endpoint process's id.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// PeakRSS is the endpoint process's peak resident set in bytes.
func (p *Process) PeakRSS() uint64 { return testprocess.PeakRSS(p.PID()) }

// Env is the environment that points an AWS SDK (Go's, Terraform's,
// Pulumi's plugin) at the endpoint, as NAME=value: its URL, test
// credentials, us-east-1 and no instance metadata lookups.
func (p *Process) Env() []string {
	return []string{"AWS_ENDPOINT_URL=" + p.URL, "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test",
		"AWS_REGION=us-east-1", "AWS_EC2_METADATA_DISABLED=true"}
}
