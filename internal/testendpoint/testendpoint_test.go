package testendpoint

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// call makes one Cloud Control call: the endpoint counts it by its
// X-Amz-Target whatever it answers (here an unsigned request).
func call(t *testing.T, p *Process, op string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, p.URL+"/", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Amz-Target", "CloudApiService."+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := p.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// TestProcess starts a real endpoint process (-rate 1: one call a
// second, the rest refused) and reads and resets its counts.
func TestProcess(t *testing.T) {
	p := Start(t, "-rate", "1")
	if !strings.HasPrefix(p.URL, "http://127.0.0.1:") {
		t.Errorf("URL %q is not on loopback", p.URL)
	}
	if p.PeakRSS() == 0 {
		t.Error("the endpoint process has no peak RSS")
	}
	if got := p.Calls(t); got.Total() != 0 {
		t.Errorf("a new endpoint counted %v", got)
	}
	call(t, p, "GetResource")
	call(t, p, "GetResource")
	call(t, p, "ListResources")
	if got := p.Calls(t).String(); got != "GetResource 2, ListResources 1" {
		t.Errorf("calls = %s, want GetResource 2, ListResources 1", got)
	}
	if got := p.Throttled(t); got < 1 {
		t.Errorf("three calls at once over -rate 1: %d throttled, want at least 1", got)
	}
	p.ResetCalls(t)
	if got, throttled := p.Calls(t), p.Throttled(t); got.Total() != 0 || throttled != 0 {
		t.Errorf("after ResetCalls: %v, %d throttled", got, throttled)
	}
	env := strings.Join(p.Env(), " ")
	if !strings.Contains(env, "AWS_ENDPOINT_URL="+p.URL) {
		t.Errorf("Env %s does not point at the endpoint", env)
	}
}

func TestWaitURL(t *testing.T) {
	dir := t.TempDir()
	exited := make(chan struct{})
	close(exited)
	if _, err := waitURL(filepath.Join(dir, "url"), exited, time.Minute); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("a process that exited: %v, want an error that says so", err)
	}
	if _, err := waitURL(filepath.Join(dir, "url"), make(chan struct{}), 100*time.Millisecond); err == nil || !strings.Contains(err.Error(), "no URL") {
		t.Errorf("no URL in time: %v, want an error that says so", err)
	}
}
