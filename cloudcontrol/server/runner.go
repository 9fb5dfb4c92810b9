package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// start runs e's request in its own goroutine until it ends or the server
// closes. The goroutine sleeps between steps on a timer; the handler is
// never holding it.
func (s *Server) start(e *entry) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.run(e)
	}()
}

func (s *Server) run(e *entry) {
	for {
		s.mu.Lock()
		r := *e.rec
		s.mu.Unlock()
		switch {
		case r.Status.Terminal():
			return
		case r.Status == cloudcontrol.StatusCancelInProgress:
			s.finish(e, r.Token, func(r *record) bool {
				r.Status = cloudcontrol.StatusCancelComplete
				return true
			})
			return
		}
		if wait := r.RetryAfter.Sub(s.now()); wait > 0 {
			if !s.sleep(e, wait) {
				return
			}
			continue
		}
		next := s.step(&r)
		if s.ctx.Err() != nil {
			// Closing: drop the step's result; the restarted server runs
			// the step again, which handlers must allow.
			return
		}
		s.finish(e, r.Token, func(cur *record) bool {
			// A cancel that came during the step wins; the next loop
			// completes it.
			if cur.Status == cloudcontrol.StatusCancelInProgress {
				return false
			}
			*cur = next
			return true
		})
	}
}

// sleep waits for d, a cancellation or the server's close; false means
// the server is closing.
func (s *Server) sleep(e *entry, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.wake:
	case <-s.ctx.Done():
		return false
	}
	return true
}

// finish persists a change made by the runner; a store failure is logged
// and retried by the next loop, since the in-memory record is unchanged.
func (s *Server) finish(e *entry, token string, fn func(r *record) bool) {
	if _, err := s.update(e, fn); err != nil {
		s.log.Error("persisting request", "token", token, "err", err)
		s.sleep(e, time.Second)
	}
}

// step runs one step of r and returns the record as it should be after
// it. r is the runner's copy.
func (s *Server) step(r *record) record {
	next := *r
	if r.Status == cloudcontrol.StatusPending {
		// The first step only reports that work began, so a client
		// always sees IN_PROGRESS, and a slow fault's delay counts from
		// here.
		next.Status = cloudcontrol.StatusInProgress
		if r.Fault != nil && r.Fault.Delay > 0 {
			next.RetryAfter = s.now().Add(r.Fault.Delay)
		}
		return next
	}
	if f := r.Fault; f != nil && f.ErrorCode != "" && (r.Operation != opCreate || r.Created) {
		return failed(next, f.ErrorCode, f.Message)
	}
	ti, err := s.typeInfo(r.TypeName)
	if err != nil {
		return failed(next, cloudcontrol.CodeInternalFailure, err.Error())
	}
	ev := s.invoke(ti, r)
	return s.apply(ti, next, ev)
}

func failed(r record, code cloudcontrol.ErrorCode, msg string) record {
	r.Status, r.ErrorCode, r.Message = cloudcontrol.StatusFailed, code, msg
	return r
}

// invoke calls the handler for one step, turning a panic or a nil event
// into a FAILED event so that a broken handler ends its request.
func (s *Server) invoke(ti *typeInfo, r *record) (ev *cloudcontrol.ProgressEvent) {
	defer func() {
		if p := recover(); p != nil {
			ev = cloudcontrol.Failed(cloudcontrol.CodeHandlerInternalFailure, fmt.Sprintf("handler panicked: %v", p))
		}
	}()
	req := &cloudcontrol.Request{
		TypeName:        r.TypeName,
		ClientToken:     r.ClientToken,
		Region:          s.opts.Region,
		Account:         s.opts.Account,
		Identifier:      r.Identifier,
		CallbackContext: r.Callback,
		Step:            r.Step + 1,
	}
	var err error
	if r.Desired != "" {
		if req.Desired, err = decodeModel(r.Desired); err != nil {
			return cloudcontrol.Failed(cloudcontrol.CodeInternalFailure, "decoding desired state: "+err.Error())
		}
	}
	if r.Previous != "" {
		if req.Previous, err = decodeModel(r.Previous); err != nil {
			return cloudcontrol.Failed(cloudcontrol.CodeInternalFailure, "decoding previous state: "+err.Error())
		}
	}
	h := ti.Handler
	switch r.Operation {
	case opCreate:
		ev = h.Create(s.ctx, req)
	case opUpdate:
		ev = h.Update(s.ctx, req)
	default:
		ev = h.Delete(s.ctx, req)
	}
	if ev == nil {
		ev = cloudcontrol.Failed(cloudcontrol.CodeHandlerInternalFailure, "handler returned no progress event")
	}
	return ev
}

// apply folds a handler's event into the record.
func (s *Server) apply(ti *typeInfo, next record, ev *cloudcontrol.ProgressEvent) record {
	next.Step++
	if ev.Model != nil && next.Identifier == "" {
		// A create's identifier is known as soon as the handler says so.
		if id, err := ti.identifier(ev.Model); err == nil {
			next.Identifier = id
		}
	}
	next.Message = ev.Message
	switch ev.Status {
	case cloudcontrol.StatusInProgress:
		cb, err := roundTrip(ev.CallbackContext)
		if err != nil {
			return failed(next, cloudcontrol.CodeHandlerInternalFailure, "callback context: "+err.Error())
		}
		// The handler gets its context back as a restarted server would
		// give it: decoded from JSON, numbers as json.Number.
		next.Callback = cb
		next.RetryAfter = s.now().Add(ev.CallbackDelay)
		return next
	case cloudcontrol.StatusSuccess:
		return s.succeeded(ti, next, ev)
	case cloudcontrol.StatusFailed:
		code := ev.ErrorCode
		if code == "" {
			code = cloudcontrol.CodeGeneralServiceException
		}
		return failed(next, code, ev.Message)
	default:
		return failed(next, cloudcontrol.CodeHandlerInternalFailure,
			fmt.Sprintf("handler returned status %q", ev.Status))
	}
}

func (s *Server) succeeded(ti *typeInfo, next record, ev *cloudcontrol.ProgressEvent) record {
	if next.Operation == opDelete {
		next.Status = cloudcontrol.StatusSuccess
		return next
	}
	if ev.Model == nil {
		return failed(next, cloudcontrol.CodeHandlerInternalFailure, "handler succeeded without a model")
	}
	id, err := ti.identifier(ev.Model)
	if err != nil {
		return failed(next, cloudcontrol.CodeHandlerInternalFailure, err.Error())
	}
	next.Identifier = id
	if next.Operation == opCreate && next.Fault != nil && next.Fault.ErrorCode != "" {
		// An injected failure after the resource exists, so that a
		// client sees a failed create with an identifier and taints.
		next.Created = true
		return failed(next, next.Fault.ErrorCode, next.Fault.Message)
	}
	next.Status = cloudcontrol.StatusSuccess
	next.Model = encodeModel(ti.public(ev.Model))
	return next
}

// roundTrip encodes a callback context to JSON and decodes it again.
func roundTrip(m map[string]any) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return decodeModel(string(b))
}

// background is the context of runners and handler steps, cancelled by
// Close.
func background() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}
