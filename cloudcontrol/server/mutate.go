package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

func (s *Server) createResource(c *call, body []byte) (any, error) {
	in, ti, err := s.resourceCall(body, false)
	if err != nil {
		return nil, err
	}
	desired, err := decodeModel(in.DesiredState)
	if err != nil {
		return nil, newError("InvalidRequestException", "DesiredState is not a JSON object: "+err.Error())
	}
	r := &record{Operation: opCreate, TypeName: ti.Name, Desired: in.DesiredState}
	if set := ti.setReadOnly(desired); len(set) > 0 {
		// As CloudFormation's handlers answer: the request is accepted
		// and fails, and nothing is made.
		r.Status, r.ErrorCode = cloudcontrol.StatusFailed, cloudcontrol.CodeInvalidRequest
		r.Message = fmt.Sprintf("Invalid Create: cannot create a resource using ReadOnly properties [%s]", strings.Join(set, ", "))
	}
	return s.accept(c, in, r)
}

func (s *Server) deleteResource(c *call, body []byte) (any, error) {
	in, ti, err := s.resourceCall(body, true)
	if err != nil {
		return nil, err
	}
	r := &record{Operation: opDelete, TypeName: ti.Name, Identifier: in.Identifier}
	return s.accept(c, in, r)
}

// updateResource reads the current model, applies the caller's patch and
// refuses changes to createOnlyProperties before accepting the request,
// so the handler's Update sees Desired and Previous as Cloud Control's
// handlers do.
func (s *Server) updateResource(c *call, body []byte) (any, error) {
	in, ti, err := s.resourceCall(body, true)
	if err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch([]byte(in.PatchDocument))
	if err != nil {
		return nil, newError("InvalidRequestException", "PatchDocument: "+err.Error())
	}
	if out, ok, err := s.replay(c, in, opUpdate); ok {
		return out, err
	}
	current, err := s.read(ti, in.Identifier)
	if err != nil {
		return nil, err
	}
	previous := encodeModel(current)
	desired, err := patch.Apply([]byte(previous))
	if err != nil {
		return nil, newError("InvalidRequestException", "applying PatchDocument: "+err.Error())
	}
	desiredModel, err := decodeModel(string(desired))
	if err != nil {
		return nil, newError("InvalidRequestException", "patched model: "+err.Error())
	}
	r := &record{Operation: opUpdate, TypeName: ti.Name, Identifier: in.Identifier,
		Desired: string(desired), Previous: previous}
	if p := ti.changedCreateOnly(current, desiredModel); p != "" {
		// Cloud Control accepts the request and fails it.
		r.Status, r.ErrorCode = cloudcontrol.StatusFailed, cloudcontrol.CodeNotUpdatable
		r.Message = fmt.Sprintf("Invalid patch update: createOnlyProperties [%s] cannot be updated", p)
	}
	return s.accept(c, in, r)
}

// inputHash identifies what a ClientToken was first used for.
func inputHash(op string, in resourceInput) string {
	b, _ := json.Marshal([]string{op, in.TypeName, in.Identifier, in.DesiredState, in.PatchDocument})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// replay answers a repeated ClientToken: the same input gets the first
// request's progress, different input a ClientTokenConflictException.
// ok is false for a new token.
func (s *Server) replay(c *call, in resourceInput, op string) (out any, ok bool, err error) {
	if in.ClientToken == "" {
		return nil, false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.byClient[in.ClientToken]
	if e == nil {
		return nil, false, nil
	}
	c.token = e.rec.Token
	if e.rec.InputHash != inputHash(op, in) {
		return nil, true, newError("ClientTokenConflictException",
			"ClientToken "+in.ClientToken+" was already used for a different request")
	}
	return progressOutput{ProgressEvent: e.rec.event()}, true, nil
}

// accept records a new mutating request durably, answers its first
// event and starts it. A request r already carrying a terminal status
// (a refused update) is recorded and not run.
func (s *Server) accept(c *call, in resourceInput, r *record) (any, error) {
	if out, ok, err := s.replay(c, in, r.Operation); ok {
		return out, err
	}
	r.Token = uuid.NewString()
	r.ClientToken = in.ClientToken
	if r.ClientToken == "" {
		r.ClientToken = r.Token
	}
	r.InputHash = inputHash(r.Operation, in)
	r.Accepted = s.now()
	if r.Status == "" {
		r.Status = cloudcontrol.StatusPending
	}
	r.Fault = s.faults.forRequest(r.TypeName, c.op, c.fault)
	c.token = r.Token
	e, err := s.admit(r)
	if err != nil {
		return nil, err
	}
	ev, err := s.update(e, func(*record) bool { return true })
	if err != nil {
		s.forget(e)
		return nil, err
	}
	c.status = ev.OperationStatus
	if !cloudcontrol.Status(ev.OperationStatus).Terminal() {
		s.start(e)
	}
	return progressOutput{ProgressEvent: ev}, nil
}

// admit indexes r under its tokens and claims its resource, refusing a
// second operation on a resource with one in flight and a ClientToken
// that a concurrent call just took.
func (s *Server) admit(r *record) (*entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, taken := s.byClient[r.ClientToken]; taken {
		return nil, newError("ConcurrentOperationException", "a request with ClientToken "+r.ClientToken+" is being accepted")
	}
	if r.Identifier != "" && !r.Status.Terminal() {
		key := resourceKey(r.TypeName, r.Identifier)
		if tok, ok := s.busy[key]; ok {
			return nil, newError("ConcurrentOperationException", fmt.Sprintf(
				"Another Operation on resource %s with identifier %s is in progress (request %s)",
				r.TypeName, r.Identifier, tok))
		}
		s.busy[key] = r.Token
	}
	return s.register(r), nil
}

// forget undoes admit after the record could not be persisted.
func (s *Server) forget(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := e.rec
	delete(s.entries, r.Token)
	delete(s.byClient, r.ClientToken)
	key := resourceKey(r.TypeName, r.Identifier)
	if s.busy[key] == r.Token {
		delete(s.busy, key)
	}
}

// read calls the handler's Read and returns the full model (writeOnly
// values included, for the server's own use).
func (s *Server) read(ti *typeInfo, identifier string) (map[string]any, error) {
	ev := s.invokeSync(ti, func(h cloudcontrol.Handler, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
		req.Identifier = identifier
		return h.Read(s.ctx, req)
	})
	if err := syncError(ti, identifier, ev); err != nil {
		return nil, err
	}
	if ev.Model == nil {
		return nil, newError("HandlerInternalFailureException", "handler read returned no model")
	}
	return ev.Model, nil
}

// invokeSync runs a synchronous handler method (Read, List), turning a
// panic into a failure.
func (s *Server) invokeSync(ti *typeInfo, fn func(cloudcontrol.Handler, *cloudcontrol.Request) *cloudcontrol.ProgressEvent) (ev *cloudcontrol.ProgressEvent) {
	defer func() {
		if p := recover(); p != nil {
			ev = cloudcontrol.Failed(cloudcontrol.CodeHandlerInternalFailure, fmt.Sprintf("handler panicked: %v", p))
		}
	}()
	req := &cloudcontrol.Request{TypeName: ti.Name, Region: s.opts.Region, Account: s.opts.Account,
		ClientToken: uuid.NewString(), Step: 1}
	ev = fn(ti.Handler, req)
	if ev == nil {
		ev = cloudcontrol.Failed(cloudcontrol.CodeHandlerInternalFailure, "handler returned no progress event")
	}
	return ev
}

// syncError maps a synchronous handler answer to the API's exceptions.
func syncError(ti *typeInfo, identifier string, ev *cloudcontrol.ProgressEvent) error {
	switch ev.Status {
	case cloudcontrol.StatusSuccess:
		return nil
	case cloudcontrol.StatusFailed:
		if ev.ErrorCode == cloudcontrol.CodeNotFound {
			return newError("ResourceNotFoundException", fmt.Sprintf(
				"Resource of type '%s' with identifier '%s' was not found.", ti.Name, identifier))
		}
		return newError(exceptionFor(ev.ErrorCode), ev.Message)
	default:
		return newError("HandlerInternalFailureException",
			fmt.Sprintf("synchronous handler returned status %q", ev.Status))
	}
}

// exceptionFor names the exception Cloud Control raises for a handler
// error code.
func exceptionFor(code cloudcontrol.ErrorCode) string {
	switch code {
	case cloudcontrol.CodeNotFound:
		return "ResourceNotFoundException"
	case cloudcontrol.CodeInternalFailure, cloudcontrol.CodeServiceInternalError:
		return "ServiceInternalErrorException"
	case cloudcontrol.CodeHandlerInternalFailure, cloudcontrol.CodeInvalidTypeConfiguration,
		cloudcontrol.CodeNonCompliant, cloudcontrol.CodeUnknown, cloudcontrol.CodeUnsupportedTarget, "":
		return "HandlerInternalFailureException"
	case cloudcontrol.CodeServiceTimeout:
		return "GeneralServiceException"
	default:
		return string(code) + "Exception"
	}
}
