package testdynamo

import (
	"net/http"

	"github.com/cairn-iac/cairn/cloudcontrol/sigv4"
)

// sigErrors is each sigv4.Failure as DynamoDB reports it.
var sigErrors = map[sigv4.Failure]struct{ code, message string }{
	sigv4.MissingAuth:  {"MissingAuthenticationTokenException", "Request is missing Authentication Token"},
	sigv4.UnknownKey:   {"UnrecognizedClientException", "The security token included in the request is invalid."},
	sigv4.Expired:      {"InvalidSignatureException", "Signature expired: the request time is more than 15 minutes from the server's time."},
	sigv4.BadSignature: {"InvalidSignatureException", "The request signature we calculated does not match the signature you provided."},
}

// checkSignature requires a SigV4 Authorization header and, when the
// server has credentials, verifies the signature with them (over exactly
// the headers the client signed, whichever SDK signed them). The
// request's clock is not checked: tests may run with a fake one.
func (s *Server) checkSignature(req *http.Request, body []byte) *apiError {
	f := sigv4.MissingAuth
	if _, ok := sigv4.ParseAuthorization(req.Header.Get("Authorization")); ok && req.Header.Get("X-Amz-Date") != "" {
		f = 0
		if s.opts.AccessKey != "" && s.opts.SecretKey != "" {
			f = sigv4.Verifier{AccessKey: s.opts.AccessKey, SecretKey: s.opts.SecretKey}.Verify(req, body)
		}
	}
	if f == 0 {
		return nil
	}
	e := sigErrors[f]
	return &apiError{code: e.code, message: e.message, status: http.StatusBadRequest}
}
