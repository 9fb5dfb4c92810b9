package sigv4

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Failure is why a request's signature was refused; each server reports
// it in its own protocol's words.
type Failure int

const (
	// MissingAuth: no SigV4 Authorization header (or no X-Amz-Date).
	MissingAuth Failure = iota + 1
	// UnknownKey: signed with an access key the server does not know.
	UnknownKey
	// Expired: signed too long before or after the server's clock.
	Expired
	// BadSignature: the signature is not the one the secret gives.
	BadSignature
)

// MaxSkew is how far a request's signing time may be from the server's
// clock, as AWS allows, so a captured request cannot be replayed later.
const MaxSkew = 15 * time.Minute

// Verifier holds the one credential pair a server accepts.
type Verifier struct {
	AccessKey, SecretKey string
	// Now is the server's clock; nil leaves the signing time unchecked
	// (a test server whose clients may run with a fake clock).
	Now func() time.Time
}

// Verify checks req, whose body has already been read, and returns 0
// when the signature is the one the verifier's secret gives.
func (v Verifier) Verify(req *http.Request, body []byte) Failure {
	a, ok := ParseAuthorization(req.Header.Get("Authorization"))
	if !ok || req.Header.Get("X-Amz-Date") == "" {
		return MissingAuth
	}
	if a.AccessKey != v.AccessKey {
		return UnknownKey
	}
	when, err := time.Parse("20060102T150405Z", req.Header.Get("X-Amz-Date"))
	if err != nil || when.Format("20060102") != a.Date {
		return BadSignature
	}
	if v.Now != nil {
		if skew := v.Now().Sub(when); skew > MaxSkew || skew < -MaxSkew {
			return Expired
		}
	}
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	if h := req.Header.Get("X-Amz-Content-Sha256"); h != "" && h != payloadHash {
		return BadSignature
	}
	want, ok := v.resign(req, a, payloadHash, when)
	if !ok || subtle.ConstantTimeCompare([]byte(want), []byte(a.Signature)) != 1 {
		return BadSignature
	}
	return 0
}

// resign signs a copy of req holding only the headers a names, and
// returns the signature; ok is false when the signer would sign a
// different header set (the client signed something it must not have).
func (v Verifier) resign(req *http.Request, a Auth, payloadHash string, when time.Time) (string, bool) {
	u := &url.URL{Scheme: "http", Host: req.Host, Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	cp, err := http.NewRequest(req.Method, u.String(), nil)
	if err != nil {
		return "", false
	}
	cp.Host = req.Host
	for _, h := range a.SignedHeaders {
		switch h {
		case "host":
		case "content-length":
			cp.ContentLength = req.ContentLength
		default:
			cp.Header[http.CanonicalHeaderKey(h)] = req.Header.Values(h)
		}
	}
	creds := aws.Credentials{AccessKeyID: v.AccessKey, SecretAccessKey: v.SecretKey,
		SessionToken: req.Header.Get("X-Amz-Security-Token")}
	err = v4.NewSigner().SignHTTP(context.Background(), creds, cp, payloadHash, a.Service, a.Region, when)
	if err != nil {
		return "", false
	}
	got, ok := ParseAuthorization(cp.Header.Get("Authorization"))
	if !ok || strings.Join(got.SignedHeaders, ";") != strings.Join(a.SignedHeaders, ";") {
		return "", false
	}
	return got.Signature, true
}
