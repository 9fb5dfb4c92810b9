package getproviders

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"
)

// HTTP fetches from provider registries and network mirrors. The command
// layer builds one per run; tests pass a client trusting their test CA.
// Transient failures (a 5xx answer, a broken connection) are retried a
// bounded number of times: hashicorp/go-retryablehttp is not in the
// module graph, and three attempts with a short pause is all init needs.
type HTTP struct {
	Client *http.Client
	// Attempts is how many times one request is tried (default 3).
	Attempts int
	// Backoff is the pause before the second attempt, doubled after
	// each (default 200ms).
	Backoff time.Duration
	// Token returns the API token for a registry host, or "" (nil: none).
	// It is sent as a bearer token to that host's discovery document and
	// registry API, never to download, checksum or signature URLs, as
	// Terraform sends it.
	Token func(host string) string

	discovered sync.Map // host -> *discovery
}

// errNotFound is a 404 answer: for the caller, "this place does not
// offer it", not a failure of the place.
var errNotFound = errors.New("not found")

func (h *HTTP) attempts() (int, time.Duration) {
	n, b := h.Attempts, h.Backoff
	if n <= 0 {
		n = 3
	}
	if b <= 0 {
		b = 200 * time.Millisecond
	}
	return n, b
}

// get fetches u into w, retrying transient failures. w is reset before
// each retry by the caller's reset. It returns the final URL (after
// redirects), against which relative references in the body resolve.
func (h *HTTP) get(ctx context.Context, u *url.URL, w io.Writer, reset func() error, token string, progress Progress) (*url.URL, error) {
	n, pause := h.attempts()
	var err error
	for i := 0; i < n; i++ {
		if i > 0 {
			if rerr := reset(); rerr != nil {
				return nil, rerr
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(pause):
			}
			pause *= 2
		}
		var final *url.URL
		var retry bool
		final, retry, err = h.getOnce(ctx, u, w, token, progress)
		if err == nil || !retry {
			return final, err
		}
	}
	return nil, err
}

// getOnce makes one request; retry says whether the failure is transient.
func (h *HTTP) getOnce(ctx context.Context, u *url.URL, w io.Writer, token string, progress Progress) (*url.URL, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, false, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := h.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, ctx.Err() == nil && !untrusted(err), err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, false, errNotFound
	case resp.StatusCode >= 500:
		return nil, true, fmt.Errorf("%s: %s", u.Redacted(), resp.Status)
	case resp.StatusCode != http.StatusOK:
		return nil, false, fmt.Errorf("%s: %s", u.Redacted(), resp.Status)
	}
	if progress != nil {
		w = &progressWriter{w: w, total: resp.ContentLength, report: progress}
		progress(0, resp.ContentLength)
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		return nil, true, fmt.Errorf("%s: %w", u.Redacted(), err)
	}
	return resp.Request.URL, false, nil
}

// getBytes fetches a small document (at most 16 MiB: JSON, checksums,
// signatures) into memory.
func (h *HTTP) getBytes(ctx context.Context, u *url.URL) ([]byte, *url.URL, error) {
	return h.getDoc(ctx, u, "")
}

// getAPI is getBytes for a registry host's own API: with its token.
func (h *HTTP) getAPI(ctx context.Context, u *url.URL) ([]byte, *url.URL, error) {
	token := ""
	if h.Token != nil {
		token = h.Token(u.Host)
	}
	return h.getDoc(ctx, u, token)
}

func (h *HTTP) getDoc(ctx context.Context, u *url.URL, token string) ([]byte, *url.URL, error) {
	var buf limitedBuffer
	buf.max = 16 << 20
	final, err := h.get(ctx, u, &buf, func() error { buf.b = buf.b[:0]; return nil }, token, nil)
	return buf.b, final, err
}

// getFile downloads u into the file at path, reporting the bytes
// received to progress (may be nil).
func (h *HTTP) getFile(ctx context.Context, u *url.URL, path string, progress Progress) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = h.get(ctx, u, f, func() error {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		return f.Truncate(0)
	}, "", progress)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

type limitedBuffer struct {
	b   []byte
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if len(l.b)+len(p) > l.max {
		return 0, fmt.Errorf("response larger than %d bytes", l.max)
	}
	l.b = append(l.b, p...)
	return len(p), nil
}

// untrusted reports a certificate the client does not trust: trying again
// cannot help.
func untrusted(err error) bool {
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &invalid) || errors.As(err, &hostname) || errors.As(err, &verify)
}
