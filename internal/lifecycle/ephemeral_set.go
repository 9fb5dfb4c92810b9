package lifecycle

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// EphemeralOp is what is done to an ephemeral resource instance, as the
// terminal reports it ("Opening...", "Closing...").
type EphemeralOp byte

const (
	EphemeralOpen  EphemeralOp = 'O'
	EphemeralRenew EphemeralOp = 'R'
	EphemeralClose EphemeralOp = 'C'
)

// EphemeralHook is told as an operation on an ephemeral resource instance
// starts (done false) and as it succeeds (done true, with how long it
// took). It is called concurrently.
type EphemeralHook func(addr addrs.AbsResourceInstance, op EphemeralOp, done bool, elapsed time.Duration)

// Ephemerals holds the ephemeral resource instances one run (a plan or an
// apply) opened: it renews each before its RenewAt in a goroutine of its
// own, and CloseAll closes them all at the end of the run, whatever
// happened: the caller defers it. Each phase has its own set, as
// Terraform opens again during apply what it opened while planning.
type Ephemerals struct {
	hook EphemeralHook

	mu     sync.Mutex
	open   []*openedEntry
	closed bool
	// renewDiags are the problems renewals met, reported by CloseAll.
	renewDiags diags.Diagnostics
}

// openedEntry is one opened instance and its renewer: stop ends the
// renewer, which closes done when it has returned; mu keeps a renewal
// and the close apart.
type openedEntry struct {
	o    *Opened
	stop chan struct{}
	done chan struct{}
}

// NewEphemerals returns an empty set; hook may be nil.
func NewEphemerals(hook EphemeralHook) *Ephemerals {
	if hook == nil {
		hook = func(addrs.AbsResourceInstance, EphemeralOp, bool, time.Duration) {}
	}
	return &Ephemerals{hook: hook}
}

// Open opens an ephemeral resource instance (OpenEphemeral) and keeps it
// until CloseAll, renewing it when the provider asks. It returns the
// instance's value, marked ephemeral. After CloseAll, it opens nothing.
func (e *Ephemerals) Open(ctx context.Context, t *Target, config cty.Value) (cty.Value, diags.Diagnostics) {
	addr := t.Addr.ResourceInstance
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return cty.NilVal, diags.Diagnostics{diags.Errorf("Ephemeral resource not opened", "%s was needed after the run closed its ephemeral resources.", addr)}
	}
	e.hook(addr, EphemeralOpen, false, 0)
	start := time.Now()
	o, ds := OpenEphemeral(ctx, t, config)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	e.hook(addr, EphemeralOpen, true, time.Since(start))
	ent := &openedEntry{o: o, stop: make(chan struct{}), done: make(chan struct{})}
	e.mu.Lock()
	e.open = append(e.open, ent)
	e.mu.Unlock()
	go e.renewLoop(ctx, ent)
	return o.Value, ds
}

// renewLoop renews an instance at each RenewAt the provider gives, until
// it gives none, the run's context ends or CloseAll stops it.
func (e *Ephemerals) renewLoop(ctx context.Context, ent *openedEntry) {
	defer close(ent.done)
	for !ent.o.renewAt.IsZero() {
		timer := time.NewTimer(time.Until(ent.o.renewAt))
		select {
		case <-ent.stop:
			timer.Stop()
			return
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		addr := ent.o.target.Addr.ResourceInstance
		e.hook(addr, EphemeralRenew, false, 0)
		start := time.Now()
		ds := ent.o.renew(ctx)
		if ds.HasErrors() {
			e.mu.Lock()
			e.renewDiags = e.renewDiags.Append(ds)
			e.mu.Unlock()
			return
		}
		e.hook(addr, EphemeralRenew, true, time.Since(start))
	}
}

// CloseAll stops every renewal and closes every opened instance, the last
// opened first, even when ctx is cancelled (an interrupted run still
// releases what it opened). It returns the problems of renewals and
// closes; afterwards the set opens nothing.
func (e *Ephemerals) CloseAll(ctx context.Context) diags.Diagnostics {
	e.mu.Lock()
	e.closed = true
	open := slices.Clone(e.open)
	e.open = nil
	e.mu.Unlock()
	ctx = context.WithoutCancel(ctx)
	var ds diags.Diagnostics
	for i := len(open) - 1; i >= 0; i-- {
		ent := open[i]
		close(ent.stop)
		<-ent.done
		addr := ent.o.target.Addr.ResourceInstance
		e.hook(addr, EphemeralClose, false, 0)
		start := time.Now()
		cds := ent.o.close(ctx)
		ds = ds.Append(cds)
		if !cds.HasErrors() {
			e.hook(addr, EphemeralClose, true, time.Since(start))
		}
	}
	e.mu.Lock()
	ds = e.renewDiags.Append(ds)
	e.renewDiags = nil
	e.mu.Unlock()
	return ds
}
