package testdynamo

import (
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Options configure a server.
type Options struct {
	// AccessKey and SecretKey, when both are set, are the only
	// credentials the server accepts: every request's SigV4 signature
	// is verified with them. Empty means requests need only be signed.
	AccessKey, SecretKey string
	// Tables are created at start, each with the HASH key LockID (S),
	// as Terraform's documentation asks lock tables to be made.
	Tables []string
}

// Server is a running DynamoDB server. Its methods are safe for
// concurrent use.
type Server struct {
	// URL is the endpoint to give clients: http://127.0.0.1:port.
	URL string

	opts Options
	http *httptest.Server

	mu     sync.Mutex
	tables map[string]*table
	calls  map[string]int
}

// maxBody bounds a request body; DynamoDB's own limit on an item is
// 400 KB, and no request these clients send comes near it.
const maxBody = 1 << 20

// targetPrefix is the X-Amz-Target prefix of DynamoDB's API version.
const targetPrefix = "DynamoDB_20120810."

// Start starts a server on a free loopback port; t.Cleanup stops it.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := New(opts)
	s.http = httptest.NewServer(s)
	s.URL = s.http.URL
	t.Cleanup(s.http.Close)
	return s
}

// New returns a server that is not listening, for use as an
// http.Handler (Start is what tests normally want).
func New(opts Options) *Server {
	s := &Server{opts: opts, tables: map[string]*table{}, calls: map[string]int{}}
	for _, name := range opts.Tables {
		s.tables[name] = newTable(name, "LockID")
	}
	return s
}

// Calls returns how many requests of each operation the server has
// answered (including refused ones), keyed by operation name.
func (s *Server) Calls() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.calls))
	for k, v := range s.calls {
		out[k] = v
	}
	return out
}

// ResetCalls sets every count back to zero.
func (s *Server) ResetCalls() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.calls)
}

// Item returns a copy of the item whose key attribute is key in table,
// and whether it exists, so tests can check what a client wrote.
func (s *Server) Item(tableName, key string) (map[string]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tb, ok := s.tables[tableName]
	if !ok {
		return nil, false
	}
	it, ok := tb.items[key]
	if !ok {
		return nil, false
	}
	return copyItem(it), true
}

// ServeHTTP answers one DynamoDB request.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, maxBody+1))
	if err != nil {
		writeError(w, errSerialization("the request body could not be read"))
		return
	}
	if len(body) > maxBody {
		writeError(w, &apiError{code: "ValidationException", message: "request body too large", status: http.StatusRequestEntityTooLarge})
		return
	}
	op, ok := strings.CutPrefix(req.Header.Get("X-Amz-Target"), targetPrefix)
	if req.Method != http.MethodPost || req.URL.Path != "/" || !ok {
		writeError(w, &apiError{code: "UnknownOperationException", status: http.StatusBadRequest})
		return
	}
	s.mu.Lock()
	s.calls[op]++
	s.mu.Unlock()
	if ct := req.Header.Get("Content-Type"); ct != "application/x-amz-json-1.0" {
		writeError(w, errSerialization("Content-Type must be application/x-amz-json-1.0, not "+strconv.Quote(ct)))
		return
	}
	if e := s.checkSignature(req, body); e != nil {
		writeError(w, e)
		return
	}
	out, e := s.dispatch(op, body)
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// apiError is an error as DynamoDB reports it.
type apiError struct {
	code, message string
	status        int
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func errValidation(msg string) *apiError {
	return &apiError{code: "ValidationException", message: msg, status: http.StatusBadRequest}
}

func errSerialization(msg string) *apiError {
	return &apiError{code: "SerializationException", message: msg, status: http.StatusBadRequest}
}

func errNoTable() *apiError {
	return &apiError{code: "ResourceNotFoundException", message: "Requested resource not found", status: http.StatusBadRequest}
}

func errConditionFailed() *apiError {
	return &apiError{code: "ConditionalCheckFailedException", message: "The conditional request failed", status: http.StatusBadRequest}
}

// decode reads a request body into v, refusing fields the subset does
// not know: a client sending one expects behaviour this server lacks.
func decode(body []byte, v any) *apiError {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var field *json.UnmarshalTypeError
		if errors.As(err, &field) {
			return errSerialization("field " + field.Field + " has the wrong type")
		}
		if strings.HasPrefix(err.Error(), "json: unknown field") {
			return errValidation("testdynamo does not implement " + strings.TrimPrefix(err.Error(), "json: "))
		}
		return errSerialization("the request body is not valid JSON")
	}
	return nil
}

func writeError(w http.ResponseWriter, e *apiError) {
	out := map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + e.code}
	if e.message != "" {
		out["message"] = e.message
	}
	writeJSON(w, e.status, out)
}

// writeJSON writes v with the headers DynamoDB sends, X-Amz-Crc32 being
// the CRC32 (IEEE) of the body, which both AWS SDKs verify.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(b)), 10))
	h.Set("X-Amzn-Requestid", "testdynamo")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
