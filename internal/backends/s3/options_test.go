package s3

import (
	"crypto/md5"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// TestServerSideEncryptionHeaders: encrypt, kms_key_id, sse_customer_key
// and acl reach every write as Terraform sends them (the headers are
// checked as sent: versitygw does not implement SSE), and the SSE-C key
// is in no error.
func TestServerSideEncryptionHeaders(t *testing.T) {
	srv := tests3.Start(t)
	sseKey := base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
	keyMD5 := md5.Sum([]byte("0123456789abcdef0123456789abcdef"))
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		want map[string]string
	}{
		{"encrypt", func(c *Config) { c.Encrypt = true }, map[string]string{"X-Amz-Server-Side-Encryption": "AES256"}},
		{"kms", func(c *Config) { c.Encrypt, c.KMSKeyID = true, "arn:aws:kms:us-east-1:111122223333:key/k" }, map[string]string{
			"X-Amz-Server-Side-Encryption": "aws:kms", "X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id": "arn:aws:kms:us-east-1:111122223333:key/k"}},
		{"sse-c", func(c *Config) { c.Encrypt, c.SSECustomerKey = true, sseKey }, map[string]string{
			"X-Amz-Server-Side-Encryption-Customer-Algorithm": "AES256",
			"X-Amz-Server-Side-Encryption-Customer-Key":       sseKey,
			"X-Amz-Server-Side-Encryption-Customer-Key-Md5":   base64.StdEncoding.EncodeToString(keyMD5[:])}},
		{"acl", func(c *Config) { c.ACL = "bucket-owner-full-control" }, map[string]string{"X-Amz-Acl": "bucket-owner-full-control"}},
		{"plain", func(c *Config) {}, map[string]string{"X-Amz-Server-Side-Encryption": "", "X-Amz-Acl": ""}},
		{"checksum", func(c *Config) {}, map[string]string{"X-Amz-Checksum-Sha256": "*"}},
		{"skip checksum", func(c *Config) { c.SkipS3Checksum = true }, map[string]string{"X-Amz-Checksum-Sha256": "", "X-Amz-Checksum-Crc32": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(srv)
			tc.mod(&cfg)
			hc := newCountingClient()
			s := stateOf(t, openTest(t, cfg, openOptions{httpClient: hc}), "default")
			_, err := s.Persist(backendtest.StateWith(1))
			if err != nil && strings.Contains(err.Error(), sseKey) {
				t.Fatalf("error contains the SSE-C key: %v", err)
			}
			for h, want := range tc.want {
				got := hc.header(http.MethodPut, h)
				if want == "*" && got != "" {
					continue
				}
				if got != want {
					t.Errorf("PUT header %s = %q, want %q", h, got, want)
				}
			}
		})
	}
}

// TestTransientFailuresAreRetried: a server that goes away and comes
// back within RetryFor costs nothing but time; one that stays away is
// backends.ErrUnavailable after RetryFor.
func TestTransientFailuresAreRetried(t *testing.T) {
	srv := tests3.Start(t)
	cfg := testConfig(srv)
	cfg.RetryFor, cfg.MaxRetries = 20*time.Second, 1
	s := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	if err := srv.Halt(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Persist(backendtest.StateWith(2))
		done <- err
	}()
	time.Sleep(700 * time.Millisecond)
	if err := srv.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Persist across a restart: %v", err)
	}
	if _, ok := srv.Get(t, "net/terraform.tfstate"); !ok {
		t.Fatal("no state object")
	}

	cfg.RetryFor = 500 * time.Millisecond
	short := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	if err := srv.Halt(); err != nil {
		t.Fatal(err)
	}
	_, err := short.Read()
	if err == nil || !strings.Contains(err.Error(), "gave up retrying") {
		t.Fatalf("Read of a stopped server = %v", err)
	}
}

// TestAssumeRole: with assume_role, the base credentials are exchanged
// at STS (endpoints.sts, here a loopback stand-in answering AssumeRole
// as STS does) for the role's, which then sign the S3 requests.
func TestAssumeRole(t *testing.T) {
	srv := tests3.Start(t)
	var mu sync.Mutex
	var form map[string]string
	sts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		mu.Lock()
		form = map[string]string{}
		for k := range r.PostForm {
			form[k] = r.PostForm.Get(k)
		}
		mu.Unlock()
		// The role's credentials are the server's root keys, so that
		// versitygw accepts what they sign.
		fmt.Fprintf(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>
<Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey><SessionToken></SessionToken>
<Expiration>%s</Expiration></Credentials>
<AssumedRoleUser><Arn>arn:aws:sts::111122223333:assumed-role/state/cairn</Arn><AssumedRoleId>AROA:cairn</AssumedRoleId></AssumedRoleUser>
</AssumeRoleResult></AssumeRoleResponse>`, srv.AccessKey, srv.SecretKey, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	}))
	defer sts.Close()
	cfg := testConfig(srv)
	cfg.AccessKey, cfg.SecretKey = "AKIABASE", "base-secret"
	cfg.STSEndpoint = sts.URL
	cfg.AssumeRole = &AssumeRole{RoleARN: "arn:aws:iam::111122223333:role/state", SessionName: "cairn", ExternalID: "ext-1", Duration: 15 * time.Minute}
	s := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	if _, err := s.Persist(backendtest.StateWith(1)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for k, want := range map[string]string{"Action": "AssumeRole", "RoleArn": cfg.AssumeRole.RoleARN, "RoleSessionName": "cairn", "ExternalId": "ext-1", "DurationSeconds": "900"} {
		if form[k] != want {
			t.Errorf("AssumeRole %s = %q, want %q", k, form[k], want)
		}
	}
}

// TestRequestsPerOperation counts what each operation costs in requests,
// the figures docs/design/performance.md quotes.
func TestRequestsPerOperation(t *testing.T) {
	srv := tests3.Start(t)
	hc := newCountingClient()
	s := stateOf(t, openTest(t, testConfig(srv), openOptions{httpClient: hc}), "default")
	count := func(name string, fn func() error) int64 {
		t.Helper()
		before := hc.n.Load()
		if err := fn(); err != nil {
			t.Fatal(err)
		}
		n := hc.n.Load() - before
		t.Logf("%s: %d requests", name, n)
		return n
	}
	count("Persist", func() error { _, err := s.Persist(backendtest.StateWith(3)); return err })
	count("Read", func() error { _, err := s.Read(); return err })
	base, _ := s.Read()
	r, err := s.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	if n := count("SetObject", func() error {
		return r.SetObject(backendtest.ObjectAddr(9), backendtest.Object(9), backendtest.Provider)
	}); n != 1 {
		t.Errorf("SetObject made %d requests, want 1 (one journal object)", n)
	}
	count("Close", func() error { _, err := r.Close(); return err })
}

// TestBucketLostMidApply: when the bucket stays unreachable past
// RetryFor, the waiting SetObject fails with backends.ErrUnavailable,
// the engine is told to stop (OnFailure), and Close returns a
// *statemgr.NotDurableError whose caller saves Snapshot; what was
// acknowledged before is replayed once the bucket is back.
func TestBucketLostMidApply(t *testing.T) {
	srv := tests3.Start(t)
	cfg := testConfig(srv)
	cfg.RetryFor, cfg.MaxRetries = 300*time.Millisecond, 1
	s := stateOf(t, openTest(t, cfg, openOptions{}), "default")
	rec, err := s.BeginApply(nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	rec.(backends.FailureNotifier).OnFailure(func() { close(stopped) })
	if err := rec.SetObject(backendtest.ObjectAddr(1), backendtest.Object(1), backendtest.Provider); err != nil {
		t.Fatal(err)
	}
	if err := srv.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := rec.SetObject(backendtest.ObjectAddr(2), backendtest.Object(2), backendtest.Provider); !errors.Is(err, backends.ErrUnavailable) {
		t.Fatalf("SetObject with the bucket gone = %v, want ErrUnavailable", err)
	}
	<-stopped
	_, err = rec.Close()
	var nd *statemgr.NotDurableError
	if !errors.As(err, &nd) {
		t.Fatalf("Close = %v, want a NotDurableError", err)
	}
	if n := backendtest.CountInstances(rec.Snapshot().State); n != 2 {
		t.Fatalf("Snapshot holds %d instances, want 2", n)
	}
	if err := srv.Resume(); err != nil {
		t.Fatal(err)
	}
	f, err := stateOf(t, openTest(t, testConfig(srv), openOptions{}), "default").Read()
	if err != nil || backendtest.CountInstances(f.State) != 1 {
		t.Fatalf("after the bucket is back: %v, %v; want the acknowledged instance", f, err)
	}
}
