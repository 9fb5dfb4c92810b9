package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// Options configure a Server. Types and Requests are required.
type Options struct {
	// Region and Account are the endpoint's; they default to us-east-1
	// and 123456789012.
	Region, Account string
	// Types resolves a type name on first use; the server caches the
	// answer. An error answers TypeNotFoundException.
	Types func(typeName string) (*cloudcontrol.ResourceType, error)
	// Requests keeps request records durably (boltstore.DB).
	Requests RequestStore
	// AccessKey and SecretKey, when both set, make the server verify
	// every request's SigV4 signature against them. Without them any
	// signature, or none, is accepted.
	AccessKey, SecretKey string
	// Logger receives one line per API call; nil discards.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Faults are installed at start, as SetFault would.
	Faults []Fault
	// Retention is how long finished requests stay listed and their
	// ClientTokens remembered; Cloud Control keeps them seven days, the
	// default. Older ones are dropped when a server starts, from the
	// store too if it implements RequestDeleter.
	Retention time.Duration
}

// RequestDeleter is a RequestStore that can drop expired records.
type RequestDeleter interface {
	DeleteRequest(token string) error
}

// Server is the endpoint. It is an http.Handler; Close stops its
// background work. Its methods are safe for concurrent use.
type Server struct {
	opts     Options
	requests RequestStore
	log      *slog.Logger
	now      func() time.Time

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	faults *faultSet

	mu       sync.Mutex
	types    map[string]*typeInfo
	entries  map[string]*entry // by request token
	byClient map[string]*entry // by ClientToken
	busy     map[string]string // resourceKey → token of its active request
	notices  []time.Duration   // see NoticeDelays
}

var _ http.Handler = (*Server)(nil)

// New returns a server that has resumed every unfinished request found
// in opts.Requests.
func New(opts Options) (*Server, error) {
	if opts.Types == nil || opts.Requests == nil {
		return nil, errors.New("server options need Types and Requests")
	}
	if opts.Region == "" {
		opts.Region = "us-east-1"
	}
	if opts.Account == "" {
		opts.Account = "123456789012"
	}
	if opts.Retention <= 0 {
		opts.Retention = 7 * 24 * time.Hour
	}
	s := &Server{
		opts:     opts,
		requests: opts.Requests,
		log:      opts.Logger,
		now:      opts.Now,
		faults:   newFaultSet(),
		types:    map[string]*typeInfo{},
		entries:  map[string]*entry{},
		byClient: map[string]*entry{},
		busy:     map[string]string{},
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.now == nil {
		s.now = time.Now
	}
	for _, f := range opts.Faults {
		if err := s.SetFault(f); err != nil {
			return nil, err
		}
	}
	s.ctx, s.cancel = background()
	if err := s.resume(); err != nil {
		s.cancel()
		return nil, err
	}
	return s, nil
}

// resume loads every request record and restarts the unfinished ones
// from their last persisted step.
func (s *Server) resume() error {
	var pending []*entry
	var expired []string
	cutoff := s.now().Add(-s.opts.Retention)
	err := s.requests.EachRequest(func(token string, b []byte) error {
		r, err := decodeRecord(b)
		if err != nil {
			return fmt.Errorf("request %s: %w", token, err)
		}
		if r.Status.Terminal() && r.EventTime.Before(cutoff) {
			expired = append(expired, token)
			return nil
		}
		e := s.register(r)
		if !r.Status.Terminal() {
			pending = append(pending, e)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("loading requests: %w", err)
	}
	if d, ok := s.requests.(RequestDeleter); ok {
		for _, token := range expired {
			if err := d.DeleteRequest(token); err != nil {
				return fmt.Errorf("dropping expired request: %w", err)
			}
		}
	}
	for _, e := range pending {
		s.start(e)
	}
	return nil
}

// register indexes r; the caller holds s.mu or owns s exclusively.
func (s *Server) register(r *record) *entry {
	e := &entry{rec: r, wake: make(chan struct{}, 1)}
	s.entries[r.Token] = e
	if r.ClientToken != "" {
		s.byClient[r.ClientToken] = e
	}
	s.claim(r)
	return e
}

// claim marks r's resource busy while r runs and frees it when r ends;
// a create claims its resource once the handler named it. The caller
// holds s.mu.
func (s *Server) claim(r *record) {
	if r.Identifier == "" {
		return
	}
	key := resourceKey(r.TypeName, r.Identifier)
	switch tok, held := s.busy[key]; {
	case r.Status.Terminal() && tok == r.Token:
		delete(s.busy, key)
	case !r.Status.Terminal() && !held:
		s.busy[key] = r.Token
	}
}

// Close stops the runners and waits for them. Unfinished requests stay
// in the RequestStore for the next server. It does not close the store.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

// typeInfo resolves and caches a type. Failed lookups are not cached, so
// a type registered later is found.
func (s *Server) typeInfo(name string) (*typeInfo, error) {
	s.mu.Lock()
	ti, ok := s.types[name]
	s.mu.Unlock()
	if ok {
		return ti, nil
	}
	rt, err := s.opts.Types(name)
	if err != nil {
		return nil, newError("TypeNotFoundException", fmt.Sprintf("type %s: %v", name, err))
	}
	if rt == nil || rt.Handler == nil {
		return nil, newError("TypeNotFoundException", fmt.Sprintf("type %s has no handler", name))
	}
	if ti, err = parseTypeInfo(rt); err != nil {
		return nil, newError("GeneralServiceException", err.Error())
	}
	s.mu.Lock()
	s.types[name] = ti
	s.mu.Unlock()
	return ti, nil
}

const targetPrefix = "CloudApiService."

// adminPath is where the test-only admin API lives; nothing under it is
// reachable through X-Amz-Target.
const adminPath = "/_cairn/"

// ServeHTTP routes a request: the admin API by path, Cloud Control by
// X-Amz-Target, anything else POSTed as a form to STS.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	target := req.Header.Get("X-Amz-Target")
	switch {
	case strings.HasPrefix(req.URL.Path, adminPath) && target == "":
		s.serveAdmin(w, req)
	case strings.HasPrefix(target, targetPrefix):
		s.serveCloudControl(w, req, strings.TrimPrefix(target, targetPrefix), start)
	case target == "" && req.Method == http.MethodPost:
		s.serveSTS(w, req, start)
	default:
		writeError(w, newError("UnknownOperationException", "unknown operation "+target))
	}
}
