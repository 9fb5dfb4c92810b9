package server

import (
	"bytes"
	"encoding/xml"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
)

// STS speaks the AWS query protocol: a form-encoded POST, an XML answer.

const stsNamespace = "https://sts.amazonaws.com/doc/2011-06-15/"

type stsIdentityResponse struct {
	XMLName   xml.Name `xml:"GetCallerIdentityResponse"`
	Xmlns     string   `xml:"xmlns,attr"`
	Arn       string   `xml:"GetCallerIdentityResult>Arn"`
	UserID    string   `xml:"GetCallerIdentityResult>UserId"`
	Account   string   `xml:"GetCallerIdentityResult>Account"`
	RequestID string   `xml:"ResponseMetadata>RequestId"`
}

type stsErrorResponse struct {
	XMLName   xml.Name `xml:"ErrorResponse"`
	Xmlns     string   `xml:"xmlns,attr"`
	Type      string   `xml:"Error>Type"`
	Code      string   `xml:"Error>Code"`
	Message   string   `xml:"Error>Message"`
	RequestID string   `xml:"RequestId"`
}

// serveSTS answers GetCallerIdentity for the endpoint's account, so
// tools that check who they are before working (the AWS provider, the
// CLI) can. Other STS actions are refused.
func (s *Server) serveSTS(w http.ResponseWriter, req *http.Request, start time.Time) {
	status := "OK"
	defer func() {
		s.log.Info("sts", "op", "GetCallerIdentity", "status", status, "duration", time.Since(start))
	}()
	body, err := readBody(req)
	if errors.Is(err, errBodyTooLarge) {
		status = "RequestEntityTooLarge"
		writeSTSError(w, http.StatusRequestEntityTooLarge, "Sender", status, tooLarge().Message)
		return
	}
	if err != nil {
		status = "InvalidRequest"
		writeSTSError(w, http.StatusBadRequest, "Sender", status, "reading request body")
		return
	}
	if e := s.checkSignature(req, body); e != nil {
		status = e.queryCode
		writeSTSError(w, http.StatusForbidden, "Sender", e.queryCode, e.message)
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("Action") != "GetCallerIdentity" {
		status = "InvalidAction"
		writeSTSError(w, http.StatusBadRequest, "Sender", status, "Could not find operation "+form.Get("Action"))
		return
	}
	user := "cairn"
	writeXML(w, http.StatusOK, stsIdentityResponse{
		Xmlns:     stsNamespace,
		Arn:       "arn:aws:iam::" + s.opts.Account + ":user/" + user,
		UserID:    "AIDACAIRNENDPOINTUSER",
		Account:   s.opts.Account,
		RequestID: uuid.NewString(),
	})
}

func writeSTSError(w http.ResponseWriter, status int, typ, code, msg string) {
	writeXML(w, status, stsErrorResponse{Xmlns: stsNamespace, Type: typ, Code: code, Message: msg,
		RequestID: uuid.NewString()})
}

func writeXML(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	if err := xml.NewEncoder(&buf).Encode(v); err != nil {
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
