package server

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

// authHeader is the parsed Authorization header of a SigV4 request.
type authHeader struct {
	accessKey, date, region, service string
	signedHeaders                    []string
	signature                        string
}

const sigV4Algorithm = "AWS4-HMAC-SHA256"

// maxSkew is how far a request's signing time may be from the server's
// clock, as AWS allows, so a captured request cannot be replayed later.
const maxSkew = 15 * time.Minute

func parseAuth(h string) (authHeader, bool) {
	var a authHeader
	rest, ok := strings.CutPrefix(h, sigV4Algorithm+" ")
	if !ok {
		return a, false
	}
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "Credential":
			scope := strings.Split(v, "/")
			if len(scope) != 5 || scope[4] != "aws4_request" {
				return a, false
			}
			a.accessKey, a.date, a.region, a.service = scope[0], scope[1], scope[2], scope[3]
		case "SignedHeaders":
			a.signedHeaders = strings.Split(v, ";")
		case "Signature":
			a.signature = v
		}
	}
	return a, a.accessKey != "" && a.signature != "" && len(a.signedHeaders) > 0
}

// sigError is how a protocol reports a signature problem: the AWS JSON
// exception name and the STS query error code for each case.
type sigError struct {
	jsonType, queryCode, message string
}

var (
	errMissingAuth = sigError{"MissingAuthenticationTokenException", "MissingAuthenticationToken",
		"Request is missing Authentication Token"}
	errUnknownKey = sigError{"UnrecognizedClientException", "InvalidClientTokenId",
		"The security token included in the request is invalid."}
	errExpired = sigError{"InvalidSignatureException", "SignatureDoesNotMatch",
		"Signature expired: the request time is more than 15 minutes from the server's time."}
	errBadSignature = sigError{"InvalidSignatureException", "SignatureDoesNotMatch",
		"The request signature we calculated does not match the signature you provided. " +
			"Check your AWS Secret Access Key and signing method. Consult the service documentation for details."}
)

// checkSignature recomputes req's SigV4 signature with the AWS SDK's
// signer over exactly the headers the client signed, and compares. It
// returns nil when no credentials are configured.
func (s *Server) checkSignature(req *http.Request, body []byte) *sigError {
	if s.opts.AccessKey == "" || s.opts.SecretKey == "" {
		return nil
	}
	a, ok := parseAuth(req.Header.Get("Authorization"))
	if !ok {
		return &errMissingAuth
	}
	if a.accessKey != s.opts.AccessKey {
		return &errUnknownKey
	}
	when, err := time.Parse("20060102T150405Z", req.Header.Get("X-Amz-Date"))
	if err != nil || when.Format("20060102") != a.date {
		return &errBadSignature
	}
	if skew := s.now().Sub(when); skew > maxSkew || skew < -maxSkew {
		return &errExpired
	}
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	if h := req.Header.Get("X-Amz-Content-Sha256"); h != "" && h != payloadHash {
		return &errBadSignature
	}
	want, ok := s.resign(req, a, payloadHash, when)
	if !ok || subtle.ConstantTimeCompare([]byte(want), []byte(a.signature)) != 1 {
		return &errBadSignature
	}
	return nil
}

// resign signs a copy of req holding only the headers a names, and
// returns the signature; ok is false when the signer would sign a
// different header set (the client signed something it must not have).
func (s *Server) resign(req *http.Request, a authHeader, payloadHash string, when time.Time) (string, bool) {
	u := &url.URL{Scheme: "http", Host: req.Host, Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	cp, err := http.NewRequest(req.Method, u.String(), nil)
	if err != nil {
		return "", false
	}
	cp.Host = req.Host
	for _, h := range a.signedHeaders {
		switch h {
		case "host":
		case "content-length":
			cp.ContentLength = req.ContentLength
		default:
			cp.Header[http.CanonicalHeaderKey(h)] = req.Header.Values(h)
		}
	}
	creds := aws.Credentials{AccessKeyID: s.opts.AccessKey, SecretAccessKey: s.opts.SecretKey,
		SessionToken: req.Header.Get("X-Amz-Security-Token")}
	err = v4.NewSigner().SignHTTP(context.Background(), creds, cp, payloadHash, a.service, a.region, when)
	if err != nil {
		return "", false
	}
	got, ok := parseAuth(cp.Header.Get("Authorization"))
	if !ok || strings.Join(got.signedHeaders, ";") != strings.Join(a.signedHeaders, ";") {
		return "", false
	}
	return got.signature, true
}

// verify is checkSignature for Cloud Control's JSON protocol.
func (s *Server) verify(req *http.Request, body []byte) error {
	if e := s.checkSignature(req, body); e != nil {
		return &apiError{Type: e.jsonType, Message: e.message, Status: http.StatusBadRequest}
	}
	return nil
}
