package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// RequestStore keeps the server's request records durably. Records are
// opaque to the store. boltstore.DB implements it.
type RequestStore interface {
	// PutRequest stores record under token, replacing any earlier one,
	// and returns once it is on stable storage.
	PutRequest(token string, record []byte) error
	// EachRequest calls fn with every stored record; fn must not keep
	// record after it returns.
	EachRequest(fn func(token string, record []byte) error) error
}

// Cloud Control's operations, as ProgressEvent.Operation names them.
const (
	opCreate = "CREATE"
	opUpdate = "UPDATE"
	opDelete = "DELETE"
)

// record is one mutating request, from acceptance to its terminal status;
// it is what RequestStore holds. Desired, Previous and Callback are only
// kept until the request ends, because models may hold secrets.
type record struct {
	Token       string
	ClientToken string
	InputHash   string
	Operation   string
	TypeName    string
	Identifier  string `json:",omitempty"`

	Accepted  time.Time
	Status    cloudcontrol.Status
	ErrorCode cloudcontrol.ErrorCode `json:",omitempty"`
	Message   string                 `json:",omitempty"`
	// Model is the public (writeOnly-stripped) model JSON after SUCCESS.
	Model      string `json:",omitempty"`
	EventTime  time.Time
	RetryAfter time.Time `json:",omitzero"`

	Step     int            `json:",omitempty"`
	Desired  string         `json:",omitempty"`
	Previous string         `json:",omitempty"`
	Callback map[string]any `json:",omitempty"`
	// Fault is the injected fault this request carries, chosen when it
	// was accepted so that a restart does not change its outcome.
	Fault *Fault `json:",omitempty"`
	// Created is set once a create's handler succeeded, so that a fail
	// fault after it is applied only once.
	Created bool `json:",omitempty"`
}

func (r *record) event() progressEvent {
	ev := progressEvent{
		TypeName:        r.TypeName,
		Identifier:      r.Identifier,
		RequestToken:    r.Token,
		Operation:       r.Operation,
		OperationStatus: string(r.Status),
		EventTime:       epoch(r.EventTime),
		StatusMessage:   r.Message,
		ErrorCode:       string(r.ErrorCode),
	}
	if r.Status == cloudcontrol.StatusSuccess {
		ev.ResourceModel = r.Model
	}
	if !r.Status.Terminal() {
		ev.RetryAfter = epoch(r.RetryAfter)
	}
	return ev
}

func decodeRecord(b []byte) (*record, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var r record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("decoding request record: %w", err)
	}
	return &r, nil
}

// entry is the server's in-memory handle on a record: the record itself,
// guarded by the Server's mutex, plus what orders its writes and wakes its
// runner.
type entry struct {
	rec *record
	// wmu orders persisting: a change and its write happen under it, so
	// the store never sees an older version after a newer one.
	wmu sync.Mutex
	// wake tells the runner that the request was cancelled.
	wake chan struct{}
	// noticed is set once a status poll has reported the request's end.
	noticed bool
}

func resourceKey(typeName, identifier string) string {
	return typeName + "\x00" + identifier
}

// update changes a copy of e's record with fn, persists it and makes it
// current; it returns the record's event. fn returning false means no
// change: nothing is written. The in-memory record changes only after
// the write succeeded, so an answer never reports what a restart would
// forget.
func (s *Server) update(e *entry, fn func(r *record) bool) (progressEvent, error) {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	s.mu.Lock()
	next := *e.rec
	s.mu.Unlock()
	if !fn(&next) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return e.rec.event(), nil
	}
	next.EventTime = s.now()
	if next.Status.Terminal() {
		next.Desired, next.Previous, next.Callback = "", "", nil
	}
	b, err := json.Marshal(&next)
	if err != nil {
		return progressEvent{}, fmt.Errorf("encoding request %s: %w", next.Token, err)
	}
	if err := s.requests.PutRequest(next.Token, b); err != nil {
		return progressEvent{}, err
	}
	s.mu.Lock()
	*e.rec = next
	s.claim(e.rec)
	ev := next.event()
	s.mu.Unlock()
	return ev, nil
}
