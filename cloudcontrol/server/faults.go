package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// Fault is an injected misbehaviour for tests, generic over types.
// TypeName and Operation select the calls it applies to ("" matches
// any); Operation is an API operation name (CreateResource,
// GetResourceRequestStatus, ...) or Cloud Control's CREATE, UPDATE,
// DELETE.
type Fault struct {
	TypeName  string `json:"typeName,omitempty"`
	Operation string `json:"operation,omitempty"`
	// Delay keeps a mutating request IN_PROGRESS that much longer.
	Delay time.Duration `json:"-"`
	// ErrorCode, when set, fails a mutating request with it and Message;
	// a create fails after its handler made the resource, so the
	// failed event carries the identifier.
	ErrorCode cloudcontrol.ErrorCode `json:"errorCode,omitempty"`
	Message   string                 `json:"message,omitempty"`
	// Throttle answers the next Throttle matching calls, of any
	// operation, with ThrottlingException.
	Throttle int `json:"throttle,omitempty"`
}

// MarshalJSON writes Delay as a Go duration string ("1.5s").
func (f Fault) MarshalJSON() ([]byte, error) {
	type plain Fault
	out := struct {
		plain
		Delay string `json:"delay,omitempty"`
	}{plain: plain(f)}
	if f.Delay > 0 {
		out.Delay = f.Delay.String()
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Fault) UnmarshalJSON(b []byte) error {
	type plain Fault
	var in struct {
		plain
		Delay string `json:"delay,omitempty"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*f = Fault(in.plain)
	if in.Delay != "" {
		d, err := time.ParseDuration(in.Delay)
		if err != nil {
			return fmt.Errorf("fault delay: %w", err)
		}
		f.Delay = d
	}
	return nil
}

var cloudControlOps = map[string]string{
	opCreate: "CreateResource", opUpdate: "UpdateResource", opDelete: "DeleteResource",
}

func (f Fault) normalized() Fault {
	if op, ok := cloudControlOps[strings.ToUpper(f.Operation)]; ok {
		f.Operation = op
	}
	return f
}

func (f Fault) matches(typeName, op string) bool {
	return (f.TypeName == "" || f.TypeName == typeName) && (f.Operation == "" || f.Operation == op)
}

// throttles reports whether a per-request fault throttles its call. A
// nil fault does not.
func (f *Fault) throttles() bool {
	return f != nil && f.Throttle > 0
}

// faultSet holds the server's installed faults.
type faultSet struct {
	mu     sync.Mutex
	faults []Fault
}

func newFaultSet() *faultSet { return &faultSet{} }

func (fs *faultSet) set(f Fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, old := range fs.faults {
		if old.TypeName == f.TypeName && old.Operation == f.Operation {
			fs.faults[i] = f
			return
		}
	}
	fs.faults = append(fs.faults, f)
}

func (fs *faultSet) clear() {
	fs.mu.Lock()
	fs.faults = nil
	fs.mu.Unlock()
}

func (fs *faultSet) list() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]Fault{}, fs.faults...)
}

// throttled consumes one throttle of the first matching fault that has
// any left.
func (fs *faultSet) throttled(typeName, op string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i := range fs.faults {
		f := &fs.faults[i]
		if f.Throttle > 0 && f.matches(typeName, op) {
			f.Throttle--
			return true
		}
	}
	return false
}

// forRequest returns the delay and failure a new mutating request
// carries: the per-request fault if any, else the first installed fault
// with a delay or error code that matches.
func (fs *faultSet) forRequest(typeName, op string, perRequest *Fault) *Fault {
	pick := func(f Fault) *Fault {
		if f.Delay <= 0 && f.ErrorCode == "" {
			return nil
		}
		return &Fault{Delay: f.Delay, ErrorCode: f.ErrorCode, Message: f.Message}
	}
	if perRequest != nil {
		return pick(*perRequest)
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, f := range fs.faults {
		if f.matches(typeName, op) {
			if p := pick(f); p != nil {
				return p
			}
		}
	}
	return nil
}

// SetFault installs f, replacing an earlier fault for the same type and
// operation.
func (s *Server) SetFault(f Fault) error {
	if f.Throttle < 0 || f.Delay < 0 {
		return fmt.Errorf("fault for %q %q: negative throttle or delay", f.TypeName, f.Operation)
	}
	if f.ErrorCode == "" && f.Message != "" {
		return fmt.Errorf("fault for %q %q: message without errorCode", f.TypeName, f.Operation)
	}
	s.faults.set(f.normalized())
	return nil
}

// ClearFaults removes every installed fault.
func (s *Server) ClearFaults() { s.faults.clear() }

// faultHeader carries a per-request fault: a Fault as JSON, applied to
// that call only (its TypeName and Operation are ignored).
const faultHeader = "X-Cairn-Fault"

func requestFault(req *http.Request) (*Fault, error) {
	h := req.Header.Get(faultHeader)
	if h == "" {
		return nil, nil
	}
	var f Fault
	if err := json.Unmarshal([]byte(h), &f); err != nil {
		return nil, newError("InvalidRequestException", faultHeader+": "+err.Error())
	}
	return &f, nil
}

// serveAdmin answers the test admin API: GET, POST (one Fault) and
// DELETE (all) on /_cairn/faults. With static credentials configured it
// takes only requests signed with them (curl --aws-sigv4 does it), like
// every other call: otherwise anyone who reaches the port could make the
// endpoint fail.
func (s *Server) serveAdmin(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != adminPath+"faults" {
		http.NotFound(w, req)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, 1<<20))
	if err != nil {
		writeJSONPlain(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	if e := s.checkSignature(req, body); e != nil {
		writeJSONPlain(w, http.StatusForbidden, map[string]string{"error": e.message})
		return
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	switch req.Method {
	case http.MethodGet:
		writeJSONPlain(w, http.StatusOK, s.faults.list())
	case http.MethodPost:
		var f Fault
		if err := json.NewDecoder(req.Body).Decode(&f); err != nil {
			writeJSONPlain(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		if err := s.SetFault(f); err != nil {
			writeJSONPlain(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSONPlain(w, http.StatusOK, s.faults.list())
	case http.MethodDelete:
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func writeJSONPlain(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
