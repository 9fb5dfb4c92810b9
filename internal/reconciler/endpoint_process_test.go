package reconciler

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// endpointProcess is `cairn cloudcontrol serve` run as its own process,
// built by the benchmark, so that what the benchmark's process uses is
// the controller's alone. It counts the calls of its one-line-per-call
// log by operation.
type endpointProcess struct {
	URL string
	cmd *exec.Cmd

	mu    sync.Mutex
	calls map[string]int
}

// startEndpointProcess builds cmd/cairn, starts its endpoint on a free
// port and points the AWS SDK at it through the environment.
func startEndpointProcess(tb testing.TB, latency time.Duration) *endpointProcess {
	tb.Helper()
	dir := tb.TempDir()
	bin := filepath.Join(dir, "cairn")
	build := exec.Command("go", "build", "-o", bin, "github.com/cairn-iac/cairn/cmd/cairn")
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("building cairn: %v\n%s", err, out)
	}
	urlFile := filepath.Join(dir, "url")
	e := &endpointProcess{calls: map[string]int{}}
	e.cmd = exec.Command(bin, "cloudcontrol", "serve", "-addr", "127.0.0.1:0", "-data", filepath.Join(dir, "data"),
		"-url-file", urlFile, "-latency", latency.String(), "-log", "info")
	stderr, err := e.cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := e.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = e.cmd.Process.Kill(); _ = e.cmd.Wait() })
	go e.count(stderr)
	deadline := time.Now().Add(time.Minute)
	for {
		if b, err := os.ReadFile(urlFile); err == nil {
			e.URL = string(b)
			break
		}
		if time.Now().After(deadline) {
			tb.Fatal("the endpoint wrote no URL in a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
	for k, v := range map[string]string{"AWS_ENDPOINT_URL": e.URL, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"} {
		tb.Setenv(k, v)
	}
	return e
}

// count reads the endpoint's log: one line per call, op=<operation>.
func (e *endpointProcess) count(r interface{ Read([]byte) (int, error) }) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.Index(line, []byte(" op="))
		if i < 0 {
			continue
		}
		op := line[i+4:]
		if j := bytes.IndexByte(op, ' '); j >= 0 {
			op = op[:j]
		}
		e.mu.Lock()
		e.calls[string(op)]++
		e.mu.Unlock()
	}
}

// snapshot returns the calls counted so far, by operation.
func (e *endpointProcess) snapshot() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]int, len(e.calls))
	for k, v := range e.calls {
		out[k] = v
	}
	return out
}

// callsSince is the calls by operation between two snapshots, as
// "Op=n" sorted by operation.
func callsSince(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}

// peakRSS is a process's peak resident set (VmHWM) in bytes; pid 0 is
// this process.
func peakRSS(pid int) uint64 {
	path := "/proc/self/status"
	if pid != 0 {
		path = fmt.Sprintf("/proc/%d/status", pid)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
