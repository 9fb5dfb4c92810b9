package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"
)

// maxBody bounds a request body. Cloud Control's largest members
// (DesiredState, PatchDocument, ResourceModel) hold at most maxProperties
// characters each; escaped as JSON strings they stay far below this.
const maxBody = 16 << 20

// maxDrain is how much of an oversized body is read and thrown away
// before answering, so that the client, still writing, reads the answer
// instead of a reset connection. Past it the connection is cut.
const maxDrain = 128 << 20

// maxProperties is the model's limit on a Properties string
// (DesiredState, PatchDocument, ResourceModel): 256K characters.
const maxProperties = 262144

// errBodyTooLarge is a body over maxBody.
var errBodyTooLarge = errors.New("request body too large")

// readBody reads a request body of at most maxBody bytes. A larger one
// (by its Content-Length or by what arrives) is drained, up to maxDrain,
// and refused with errBodyTooLarge.
func readBody(req *http.Request) ([]byte, error) {
	if req.ContentLength > maxBody {
		drain(req.Body)
		return nil, errBodyTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxBody {
		drain(req.Body)
		return nil, errBodyTooLarge
	}
	return body, nil
}

func drain(body io.Reader) { _, _ = io.CopyN(io.Discard, body, maxDrain) }

// tooLarge is the answer to a body over maxBody: HTTP 413, as AWS's
// front ends answer an oversized request, with an exception a client can
// name.
func tooLarge() *apiError {
	e := newError("RequestEntityTooLargeException",
		fmt.Sprintf("Request body is larger than the endpoint's limit of %d bytes", maxBody))
	e.Status = http.StatusRequestEntityTooLarge
	return e
}

// lengthRule is one member's length constraint from the API model.
type lengthRule struct {
	member string // as AWS's messages name it: desiredState
	value  string
	max    int
}

// checkLengths answers a ValidationException in AWS's words for members
// longer than the API model allows; nil when none is.
func checkLengths(rules ...lengthRule) error {
	var bad []string
	for _, r := range rules {
		if utf8.RuneCountInString(r.value) > r.max {
			bad = append(bad, fmt.Sprintf("Value at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", r.member, r.max))
		}
	}
	switch len(bad) {
	case 0:
		return nil
	case 1:
		return newError("ValidationException", "1 validation error detected: "+bad[0])
	}
	return newError("ValidationException", fmt.Sprintf("%d validation errors detected: %s", len(bad), strings.Join(bad, "; ")))
}
