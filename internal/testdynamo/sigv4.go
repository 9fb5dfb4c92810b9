package testdynamo

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// sigV4 is the parsed Authorization header of a SigV4 request.
type sigV4 struct {
	accessKey, date, region, service string
	signedHeaders                    []string
	signature                        string
}

const sigAlgorithm = "AWS4-HMAC-SHA256"

func parseSigV4(h string) (sigV4, bool) {
	var a sigV4
	rest, ok := strings.CutPrefix(h, sigAlgorithm+" ")
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

func errMissingAuth() *apiError {
	return &apiError{code: "MissingAuthenticationTokenException",
		message: "Request is missing Authentication Token", status: http.StatusBadRequest}
}

func errUnknownKey() *apiError {
	return &apiError{code: "UnrecognizedClientException",
		message: "The security token included in the request is invalid.", status: http.StatusBadRequest}
}

func errBadSignature() *apiError {
	return &apiError{code: "InvalidSignatureException",
		message: "The request signature we calculated does not match the signature you provided.", status: http.StatusBadRequest}
}

// checkSignature requires a SigV4 Authorization header and, when the
// server has credentials, recomputes the signature over exactly the
// headers the client signed (whichever SDK signed them) and compares.
// The request's clock is not checked: tests may run with a fake one.
func (s *Server) checkSignature(req *http.Request, body []byte) *apiError {
	a, ok := parseSigV4(req.Header.Get("Authorization"))
	if !ok || req.Header.Get("X-Amz-Date") == "" {
		return errMissingAuth()
	}
	if s.opts.AccessKey == "" || s.opts.SecretKey == "" {
		return nil
	}
	if a.accessKey != s.opts.AccessKey {
		return errUnknownKey()
	}
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	if h := req.Header.Get("X-Amz-Content-Sha256"); h != "" && h != payloadHash {
		return errBadSignature()
	}
	want := signature(s.opts.SecretKey, a, stringToSign(req, a, payloadHash))
	if subtle.ConstantTimeCompare([]byte(want), []byte(a.signature)) != 1 {
		return errBadSignature()
	}
	return nil
}

// stringToSign is SigV4's string to sign for req; the path is always
// "/" and the query empty in this protocol.
func stringToSign(req *http.Request, a sigV4, payloadHash string) string {
	headers := append([]string(nil), a.signedHeaders...)
	sort.Strings(headers)
	var canon strings.Builder
	canon.WriteString(req.Method + "\n" + req.URL.EscapedPath() + "\n" + req.URL.RawQuery + "\n")
	for _, h := range headers {
		canon.WriteString(h + ":" + headerValue(req, h) + "\n")
	}
	canon.WriteString("\n" + strings.Join(headers, ";") + "\n" + payloadHash)
	sum := sha256.Sum256([]byte(canon.String()))
	scope := a.date + "/" + a.region + "/" + a.service + "/aws4_request"
	return sigAlgorithm + "\n" + req.Header.Get("X-Amz-Date") + "\n" + scope + "\n" + hex.EncodeToString(sum[:])
}

// headerValue is a signed header's canonical value: Go keeps Host and
// Content-Length out of the header map.
func headerValue(req *http.Request, name string) string {
	switch name {
	case "host":
		return req.Host
	case "content-length":
		return strconv.FormatInt(req.ContentLength, 10)
	}
	vals := append([]string(nil), req.Header.Values(name)...)
	for i, v := range vals {
		vals[i] = strings.Join(strings.Fields(v), " ")
	}
	return strings.Join(vals, ",")
}

// signature is the hex HMAC of toSign under the key derived from
// secret for a's date, region and service.
func signature(secret string, a sigV4, toSign string) string {
	key := []byte("AWS4" + secret)
	for _, part := range []string{a.date, a.region, a.service, "aws4_request", toSign} {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(part))
		key = m.Sum(nil)
	}
	return hex.EncodeToString(key)
}
