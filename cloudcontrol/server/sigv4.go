package server

import (
	"net/http"

	"github.com/cairn-iac/cairn/cloudcontrol/sigv4"
)

// sigError is how a protocol reports a signature problem: the AWS JSON
// exception name and the STS query error code for each case.
type sigError struct {
	jsonType, queryCode, message string
}

// sigErrors is each sigv4.Failure in both protocols' words.
var sigErrors = map[sigv4.Failure]*sigError{
	sigv4.MissingAuth: {"MissingAuthenticationTokenException", "MissingAuthenticationToken",
		"Request is missing Authentication Token"},
	sigv4.UnknownKey: {"UnrecognizedClientException", "InvalidClientTokenId",
		"The security token included in the request is invalid."},
	sigv4.Expired: {"InvalidSignatureException", "SignatureDoesNotMatch",
		"Signature expired: the request time is more than 15 minutes from the server's time."},
	sigv4.BadSignature: {"InvalidSignatureException", "SignatureDoesNotMatch",
		"The request signature we calculated does not match the signature you provided. " +
			"Check your AWS Secret Access Key and signing method. Consult the service documentation for details."},
}

// checkSignature verifies req's SigV4 signature against the server's
// credentials; it returns nil when none are configured.
func (s *Server) checkSignature(req *http.Request, body []byte) *sigError {
	if s.opts.AccessKey == "" || s.opts.SecretKey == "" {
		return nil
	}
	v := sigv4.Verifier{AccessKey: s.opts.AccessKey, SecretKey: s.opts.SecretKey, Now: s.now}
	if f := v.Verify(req, body); f != 0 {
		return sigErrors[f]
	}
	return nil
}

// verify is checkSignature for Cloud Control's JSON protocol.
func (s *Server) verify(req *http.Request, body []byte) error {
	if e := s.checkSignature(req, body); e != nil {
		return &apiError{Type: e.jsonType, Message: e.message, Status: http.StatusBadRequest}
	}
	return nil
}
