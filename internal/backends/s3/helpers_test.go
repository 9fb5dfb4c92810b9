package s3

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// testConfig reaches srv's bucket with its root credentials, locking
// with the lock object.
func testConfig(srv *tests3.Server) Config {
	return Config{
		Bucket: srv.Bucket, Key: "net/terraform.tfstate", Region: srv.Region,
		S3Endpoint: srv.URL, UsePathStyle: true,
		AccessKey: srv.AccessKey, SecretKey: srv.SecretKey,
		SkipCredentialsValidation: true, SkipMetadataAPICheck: true, SkipRequestingAccountID: true,
		UseLockfile: true,
		RetryFor:    2 * time.Second,
	}
}

// openTest opens a backend; each call is another client, as another
// process would be.
func openTest(t testing.TB, cfg Config, o openOptions) *Backend {
	t.Helper()
	b, err := open(context.Background(), cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func stateOf(t testing.TB, b *Backend, name string) *State {
	t.Helper()
	m, err := b.StateMgr(name)
	if err != nil {
		t.Fatal(err)
	}
	return m.(*State)
}

// fakeDynamo is an in-memory lock table behind the one seam the
// DynamoDB lock is reached through (package dynamolock has the real one
// and its own tests against a server speaking DynamoDB's protocol).
type fakeDynamo struct {
	mu      sync.Mutex
	locks   map[string]statemgr.LockInfo
	digests map[string][]byte
	calls   []string
}

func newFakeDynamo() *fakeDynamo {
	return &fakeDynamo{locks: map[string]statemgr.LockInfo{}, digests: map[string][]byte{}}
}

func (f *fakeDynamo) note(call string) { f.calls = append(f.calls, call) }

func (f *fakeDynamo) Lock(_ context.Context, path string, info statemgr.LockInfo) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note("Lock " + path)
	if h, ok := f.locks[path]; ok {
		return &statemgr.LockError{Holder: &h, Err: statemgr.ErrLocked}
	}
	f.locks[path] = info
	return nil
}

func (f *fakeDynamo) Unlock(_ context.Context, path, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note("Unlock " + path)
	h, ok := f.locks[path]
	if !ok {
		return nil
	}
	if h.ID != id {
		return &statemgr.LockError{Holder: &h, Err: fmt.Errorf("lock id %q does not match", id)}
	}
	delete(f.locks, path)
	return nil
}

func (f *fakeDynamo) Holder(_ context.Context, path string) (*statemgr.LockInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if h, ok := f.locks[path]; ok {
		return &h, nil
	}
	return nil, nil
}

func (f *fakeDynamo) Digest(_ context.Context, path string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.digests[path], nil
}

func (f *fakeDynamo) PutDigest(_ context.Context, path string, sum []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note("PutDigest " + path)
	f.digests[path] = append([]byte(nil), sum...)
	return nil
}

func (f *fakeDynamo) DeleteDigest(_ context.Context, path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note("DeleteDigest " + path)
	delete(f.digests, path)
	return nil
}

// countingClient counts the HTTP requests the SDK makes, by method, and
// keeps the headers of the last one of each method.
type countingClient struct {
	n       atomic.Int64
	mu      sync.Mutex
	byVerb  map[string]int
	headers map[string]http.Header
}

func newCountingClient() *countingClient {
	return &countingClient{byVerb: map[string]int{}, headers: map[string]http.Header{}}
}

func (c *countingClient) Do(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	c.mu.Lock()
	c.byVerb[r.Method]++
	c.headers[r.Method] = r.Header.Clone()
	c.mu.Unlock()
	return http.DefaultClient.Do(r)
}

func (c *countingClient) header(method, name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.headers[method].Values(name), ",")
}

func errorsAs(err error, target any) bool { return err != nil && errors.As(err, target) }
