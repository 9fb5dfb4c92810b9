package ccendpoint

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/cairn-iac/cairn/cloudcontrol/boltstore"
	"github.com/cairn-iac/cairn/cloudcontrol/emulator"
	"github.com/cairn-iac/cairn/cloudcontrol/server"
)

// Options configure an endpoint.
type Options struct {
	// Addr is the address to listen on; "127.0.0.1:0" picks a free port.
	// Empty means DefaultAddr.
	Addr string
	// DataDir holds the store (cloudcontrol.db); created if missing.
	DataDir string
	// SchemaDirs are laid over the built-in schemas, later ones winning.
	SchemaDirs []string
	// Region and Account default to us-east-1 and 123456789012.
	Region, Account string
	// AccessKey and SecretKey, when set, make the endpoint verify SigV4
	// signatures.
	AccessKey, SecretKey string
	// Latency makes every create, update and delete take one polling
	// round of this long (see emulator.WithLatency).
	Latency time.Duration
	// RTT delays the answer of every Cloud Control call by this long, as
	// a round trip to a remote endpoint would: reads cost what they cost
	// against AWS, so benchmarks of a refresh measure something real.
	RTT time.Duration
	// Rate, when positive, is how many Cloud Control calls a second the
	// endpoint accepts (bursts of one second's worth); the calls beyond it
	// are answered with ThrottlingException, as Cloud Control answers
	// them.
	Rate float64
	// Logger receives one line per call; nil discards.
	Logger *slog.Logger
	// Timeouts bound how long a connection may stall; zero fields take
	// DefaultTimeouts'.
	Timeouts Timeouts
}

// Timeouts bound the life of a client connection, so that stalled or
// abandoned clients do not hold the endpoint's connections and goroutines
// for ever.
type Timeouts struct {
	// Header is how long a client may take to send a request's headers.
	Header time.Duration
	// Read is how long it may take to send a whole request, body included.
	Read time.Duration
	// Write is how long an answer may take to be written.
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request.
	Idle time.Duration
}

// DefaultTimeouts are generous for any client on a working network: a
// request body is at most 16 MiB.
var DefaultTimeouts = Timeouts{Header: 10 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute}

// or returns t with its zero fields taken from d.
func (t Timeouts) or(d Timeouts) Timeouts {
	pick := func(a, b time.Duration) time.Duration {
		if a > 0 {
			return a
		}
		return b
	}
	return Timeouts{Header: pick(t.Header, d.Header), Read: pick(t.Read, d.Read), Write: pick(t.Write, d.Write), Idle: pick(t.Idle, d.Idle)}
}

// httpServer is the listener's server for handler h with timeouts t.
func httpServer(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.Header, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
}

// DefaultAddr is where an endpoint listens unless told otherwise: the
// port AWS emulators customarily use, on loopback only.
const DefaultAddr = "127.0.0.1:4566"

// Endpoint is a running endpoint.
type Endpoint struct {
	// URL is the base URL clients use (http://127.0.0.1:PORT).
	URL string

	srv     *server.Server
	db      *boltstore.DB
	traffic *traffic
	http    *http.Server
	done    chan error
}

// Start opens the store, resumes unfinished requests and starts serving.
func Start(opts Options) (*Endpoint, error) {
	h, srv, db, err := newHandler(opts)
	if err != nil {
		return nil, err
	}
	addr := opts.Addr
	if addr == "" {
		addr = DefaultAddr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Close()
		db.Close()
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	e := &Endpoint{URL: "http://" + ln.Addr().String(), srv: srv, db: db, traffic: h,
		http: httpServer(h, opts.Timeouts.or(DefaultTimeouts)), done: make(chan error, 1)}
	go func() { e.done <- e.http.Serve(ln) }()
	return e, nil
}

// NewHandler assembles the endpoint's http.Handler without listening (for
// httptest); the caller closes srv and then db.
func NewHandler(opts Options) (http.Handler, *server.Server, *boltstore.DB, error) {
	h, srv, db, err := newHandler(opts)
	if err != nil {
		return nil, nil, nil, err
	}
	return h, srv, db, nil
}

// newHandler is NewHandler with the traffic layer (delays, rate limit,
// call counts) that wraps every other one.
func newHandler(opts Options) (*traffic, *server.Server, *boltstore.DB, error) {
	if opts.DataDir == "" {
		return nil, nil, nil, errors.New("the endpoint needs a data directory")
	}
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, nil, nil, fmt.Errorf("creating the data directory: %w", err)
	}
	source, err := newSchemaSource(opts.SchemaDirs)
	if err != nil {
		return nil, nil, nil, err
	}
	db, err := boltstore.Open(filepath.Join(opts.DataDir, "cloudcontrol.db"))
	if err != nil {
		return nil, nil, nil, err
	}
	var emuOpts []emulator.Option
	if opts.Latency > 0 {
		emuOpts = append(emuOpts, emulator.WithLatency(opts.Latency))
	}
	srv, err := server.New(server.Options{
		Region: opts.Region, Account: opts.Account,
		AccessKey: opts.AccessKey, SecretKey: opts.SecretKey,
		Logger:   opts.Logger,
		Requests: db,
		Types: func(typeName string) (*cloudcontrol.ResourceType, error) {
			doc, err := source.schema(typeName)
			if err != nil {
				return nil, err
			}
			h, err := emulator.New(typeName, doc, db, emuOpts...)
			if err != nil {
				return nil, err
			}
			return &cloudcontrol.ResourceType{Name: typeName, Schema: doc, Handler: h}, nil
		},
	})
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	reg := &registryAPI{next: srv, source: source, provisioned: map[string]string{}}
	return newTraffic(reg, opts.RTT, opts.Rate), srv, db, nil
}

// Notice is what opening the store found worth telling the user without
// refusing it (an empty store file taken as new), or "".
func (e *Endpoint) Notice() string { return e.db.Notice() }

// Calls returns the Cloud Control calls the endpoint received so far, by
// operation, and how many of them were throttled (see Options.Rate).
func (e *Endpoint) Calls() (Calls, int) { return e.traffic.counts() }

// SetRTT changes Options.RTT for the calls that arrive from now on: a
// benchmark fills the endpoint fast, then measures at a realistic pace.
func (e *Endpoint) SetRTT(d time.Duration) { e.traffic.rtt.Store(int64(max(d, 0))) }

// ResetCalls sets the call counts back to zero.
func (e *Endpoint) ResetCalls() { e.traffic.reset() }

// Server is the protocol server, for injecting faults.
func (e *Endpoint) Server() *server.Server { return e.srv }

// Close stops listening, waits up to five seconds for calls in flight
// (then cuts them), stops background work and closes the store. Requests still in progress
// resume when an endpoint opens the same data directory again.
func (e *Endpoint) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := e.http.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Calls still open after the grace period (or a connection a
		// client dialled and never used, which Shutdown counts as busy
		// for five seconds) are cut: whatever they changed is already
		// recorded, and a restarted endpoint resumes it.
		err = e.http.Close()
	}
	if serr := <-e.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if cerr := e.srv.Close(); err == nil {
		err = cerr
	}
	if cerr := e.db.Close(); err == nil {
		err = cerr
	}
	return err
}
