package server

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/google/go-cmp/cmp"
)

// TestRestartResumes stops the server while a create's handler is in
// its second step; a new server over the same file runs that step again
// from the persisted callback and finishes the create. Finished
// requests and resources are still there.
func TestRestartResumes(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.handlers[logGroupType].steps = 1 })
	mh := h.handlers[logGroupType]
	done := h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"before"}`))
	// The first create's runner has ended (its SUCCESS was observed),
	// so nothing reads gate while it is set.
	mh.gate = make(chan struct{})
	first := h.create(logGroupType, `{"LogGroupName":"during"}`)
	for mh.invocations.Load() < 4 {
		time.Sleep(time.Millisecond)
	}
	h.restart()
	close(mh.gate)
	final := h.mustSucceed(first)
	if got := aws.ToString(final.Identifier); got != "during" {
		t.Errorf("resumed create identifier = %q", got)
	}
	again := h.wait(done.RequestToken)
	if again.OperationStatus != "SUCCESS" {
		t.Errorf("finished request after restart: %s", again.OperationStatus)
	}
	for _, id := range []string{"before", "during"} {
		if _, err := h.client.GetResource(context.Background(), &ccapi.GetResourceInput{
			TypeName: aws.String(logGroupType), Identifier: aws.String(id)}); err != nil {
			t.Errorf("GetResource %s after restart: %v", id, err)
		}
	}
}

const childEnv = "CAIRN_ENDPOINT_CHILD_DB"

// TestKillNine runs the endpoint in a child process, acknowledges a
// finished create and a slow one, kills the child with SIGKILL, and
// checks that a server over the same file has both.
func TestKillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dbPath := filepath.Join(t.TempDir(), "cairn.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillNineChild$")
	cmd.Env = append(os.Environ(), childEnv+"="+dbPath)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("child did not start: %v", err)
	}
	client := clientFor(strings.TrimSpace(url))
	h := &harness{t: t, client: client}
	ctx := context.Background()
	out, err := client.CreateResource(ctx, &ccapi.CreateResourceInput{TypeName: aws.String(logGroupType),
		DesiredState: aws.String(`{"LogGroupName":"done"}`)})
	if err != nil {
		t.Fatal(err)
	}
	h.mustSucceed(out.ProgressEvent)
	slow, err := client.CreateResource(ctx, &ccapi.CreateResourceInput{TypeName: aws.String(logGroupType),
		DesiredState: aws.String(`{"LogGroupName":"slow"}`)}, withHeader(faultHeader, `{"delay":"200ms"}`))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	h2 := newHarnessAt(t, dbPath, nil)
	final := h2.mustSucceed(slow.ProgressEvent)
	got := []string{aws.ToString(final.Identifier)}
	for _, id := range []string{"done", "slow"} {
		if _, err := h2.db.Get(logGroupType, id); err == nil {
			got = append(got, id)
		}
	}
	if diff := cmp.Diff([]string{"slow", "done", "slow"}, got); diff != "" {
		t.Errorf("after kill -9 (-want +got):\n%s", diff)
	}
}

// TestKillNineChild is the child of TestKillNine: it serves until killed.
func TestKillNineChild(t *testing.T) {
	dbPath := os.Getenv(childEnv)
	if dbPath == "" {
		t.Skip("only runs as TestKillNine's child")
	}
	h := newHarnessAt(t, dbPath, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	http.Serve(ln, h)
}

func clientFor(url string) *ccapi.Client {
	return ccapi.NewFromConfig(aws.Config{Region: "us-east-1"}, func(o *ccapi.Options) {
		o.BaseEndpoint = aws.String(url)
		o.Retryer = aws.NopRetryer{}
	})
}

// TestRetention: finished requests older than Retention are gone after
// a restart, from the listing and from the store; newer ones stay.
func TestRetention(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock struct {
		sync.Mutex
		t time.Time
	}
	clock.t = now
	h := newHarness(t, func(h *harness) {
		h.opts.Retention = 24 * time.Hour
		h.opts.Now = func() time.Time { clock.Lock(); defer clock.Unlock(); return clock.t }
	})
	old := h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"old"}`)).RequestToken
	clock.Lock()
	clock.t = now.Add(20 * time.Hour)
	clock.Unlock()
	recent := h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"recent"}`)).RequestToken
	clock.Lock()
	clock.t = now.Add(30 * time.Hour)
	clock.Unlock()
	h.restart()
	var got []string
	h.db.EachRequest(func(token string, _ []byte) error {
		got = append(got, token)
		return nil
	})
	if diff := cmp.Diff([]string{aws.ToString(recent)}, got); diff != "" {
		t.Errorf("stored requests (-want +got):\n%s", diff)
	}
	_, err := h.client.GetResourceRequestStatus(context.Background(), &ccapi.GetResourceRequestStatusInput{RequestToken: old})
	if errorCode(err) != "RequestTokenNotFoundException" {
		t.Errorf("status of expired request: %v", err)
	}
}
