package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// call is what one API call carries through dispatch, for the log line.
type call struct {
	op, typeName, token string
	status              string
	fault               *Fault
}

type opFunc func(s *Server, c *call, body []byte) (any, error)

var operations = map[string]opFunc{
	"CreateResource":           (*Server).createResource,
	"GetResource":              (*Server).getResource,
	"UpdateResource":           (*Server).updateResource,
	"DeleteResource":           (*Server).deleteResource,
	"ListResources":            (*Server).listResources,
	"GetResourceRequestStatus": (*Server).getRequestStatus,
	"ListResourceRequests":     (*Server).listRequests,
	"CancelResourceRequest":    (*Server).cancelRequest,
}

func (s *Server) serveCloudControl(w http.ResponseWriter, req *http.Request, op string, start time.Time) {
	c := &call{op: op}
	out, err := s.dispatch(req, c)
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			s.log.Error("internal error", "op", op, "err", err)
			ae = newError("ServiceInternalErrorException", "internal error")
		}
		c.status = ae.Type
		writeError(w, ae)
	} else {
		if c.status == "" {
			c.status = "OK"
		}
		writeJSON(w, http.StatusOK, out)
	}
	s.log.Info("cloudcontrol", "op", op, "type", c.typeName, "token", c.token,
		"status", c.status, "duration", time.Since(start))
}

func (s *Server) dispatch(req *http.Request, c *call) (any, error) {
	body, err := readBody(req)
	if errors.Is(err, errBodyTooLarge) {
		return nil, tooLarge()
	}
	if err != nil {
		return nil, newError("InvalidRequestException", "reading request body: "+err.Error())
	}
	if err := s.verify(req, body); err != nil {
		return nil, err
	}
	fn, ok := operations[c.op]
	if !ok {
		return nil, newError("UnknownOperationException", "unknown operation "+c.op)
	}
	if c.fault, err = requestFault(req); err != nil {
		return nil, err
	}
	c.typeName = peekTypeName(body)
	if s.faults.throttled(c.typeName, c.op) || c.fault.throttles() {
		return nil, newError("ThrottlingException", "Rate exceeded")
	}
	return fn(s, c, body)
}

// peekTypeName reads TypeName from a body for throttling and logging
// before the operation decodes it properly.
func peekTypeName(body []byte) string {
	var in struct{ TypeName string }
	json.Unmarshal(body, &in)
	return in.TypeName
}

func decodeInput(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return newError("InvalidRequestException", "malformed request: "+err.Error())
	}
	return nil
}
