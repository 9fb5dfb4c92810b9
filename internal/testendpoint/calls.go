package testendpoint

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// callsPath is where the endpoint reports (GET) and resets (DELETE) the
// Cloud Control calls it counted.
const callsPath = "/_cairn/calls"

// report is the JSON answer of GET /_cairn/calls.
type report struct {
	Calls     ccendpoint.Calls `json:"calls"`
	Throttled int              `json:"throttled"`
}

// Calls is the Cloud Control calls the endpoint answered since it started
// or since the last ResetCalls, by operation.
func (p *Process) Calls(tb testing.TB) ccendpoint.Calls {
	tb.Helper()
	r, err := p.report()
	if err != nil {
		tb.Fatal(err)
	}
	return r.Calls
}

// Throttled is how many of those calls the endpoint refused over its
// -rate.
func (p *Process) Throttled(tb testing.TB) int {
	tb.Helper()
	r, err := p.report()
	if err != nil {
		tb.Fatal(err)
	}
	return r.Throttled
}

func (p *Process) report() (report, error) {
	resp, err := p.client.Get(p.URL + callsPath)
	if err != nil {
		return report{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return report{}, fmt.Errorf("GET %s: %s", callsPath, resp.Status)
	}
	r := report{Calls: ccendpoint.Calls{}}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return report{}, fmt.Errorf("GET %s: %w", callsPath, err)
	}
	return r, nil
}

// ResetCalls sets the endpoint's counts back to none, so the next Calls
// counts one step of a benchmark alone.
func (p *Process) ResetCalls(tb testing.TB) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodDelete, p.URL+callsPath, nil)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		tb.Fatalf("DELETE %s: %s", callsPath, resp.Status)
	}
}
