package emulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// ClientTokenType is the reserved type name under which the emulator
// keeps, in the Store, which identifier each create's ClientToken made.
// No CloudFormation type name has this shape, so it collides with none.
const ClientTokenType = "Cairn::Emulator::ClientToken"

// callbackKey marks, in the callback context, a step that has waited.
const callbackKey = "emulator"

// Option configures a handler.
type Option func(*handler)

// WithLatency makes create, update and delete answer IN_PROGRESS once,
// asking to be called again after d, before they finish, so that clients
// exercise their polling. The default, 0, finishes in one step.
func WithLatency(d time.Duration) Option {
	return func(h *handler) { h.latency = d }
}

// WithClock sets the clock read for date-time values (tests fix it).
func WithClock(now func() time.Time) Option {
	return func(h *handler) { h.now = now }
}

// handler serves one type from its schema.
type handler struct {
	schema   *typeSchema
	store    cloudcontrol.Store
	valid    *validator
	shapes   map[string]shape
	patterns *patternCache
	latency  time.Duration
	now      func() time.Time
	// createMu serialises the check-then-insert of creates, so that a
	// re-run recognised by its ClientToken and a rival create of the same
	// name cannot interleave.
	createMu sync.Mutex
}

var _ cloudcontrol.Handler = (*handler)(nil)

// New returns a Handler that emulates typeName from its CloudFormation
// resource schema, keeping models in store. It fails when the schema is
// not JSON or names no primary identifier; the JSON Schema itself is
// compiled on first use, and a schema that does not compile makes every
// create and update fail with InvalidTypeConfiguration.
func New(typeName string, schema []byte, store cloudcontrol.Store, opts ...Option) (cloudcontrol.Handler, error) {
	if store == nil {
		return nil, fmt.Errorf("emulator for %s: nil store", typeName)
	}
	s, err := parseSchema(typeName, schema)
	if err != nil {
		return nil, err
	}
	h := &handler{
		schema: s, store: store, valid: &validator{schema: s},
		shapes: typeShapes(typeName), patterns: &patternCache{}, now: time.Now,
	}
	for _, opt := range opts {
		opt(h)
	}
	return h, nil
}

// Create validates the desired model and stores the resource with its
// identifier and read-only values.
func (h *handler) Create(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	desired := copyModel(req.Desired)
	removePaths(desired, h.schema.readOnly)
	h.schema.fillRequiredDefaults(desired)
	if ev := h.validate(desired); ev != nil {
		return ev
	}
	if ev := h.wait(req); ev != nil {
		return ev
	}
	return h.create(req, desired)
}

// Read returns the stored model without write-only values.
func (h *handler) Read(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	model, ev := h.load(req.Identifier)
	if ev != nil {
		return ev
	}
	return cloudcontrol.Success(h.schema.answer(model))
}

// Update validates the desired model and stores it, keeping the read-only
// values of the stored model. Write-only values the desired model lacks
// are kept too: the caller never saw them, so their absence is not a
// removal.
func (h *handler) Update(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	stored, ev := h.load(req.Identifier)
	if ev != nil {
		return ev
	}
	desired := copyModel(req.Desired)
	removePaths(desired, h.schema.readOnly)
	carryPaths(desired, stored, h.schema.writeOnly)
	h.schema.fillRequiredDefaults(desired)
	if ev := h.validate(desired); ev != nil {
		return ev
	}
	if ev := h.wait(req); ev != nil {
		return ev
	}
	h.schema.fillDefaults(desired)
	carryPaths(desired, stored, h.schema.readOnly)
	// The stored model has every read-only value; Previous only matters
	// for a model stored before a schema grew one.
	carryPaths(desired, req.Previous, h.schema.readOnly)
	if id, err := h.schema.identifierOf(desired); err != nil || id != req.Identifier {
		return cloudcontrol.Failed(cloudcontrol.CodeNotUpdatable,
			fmt.Sprintf("Update of %s [%s] would change its primary identifier", h.schema.typeName, req.Identifier))
	}
	raw, err := json.Marshal(desired)
	if err != nil {
		return internalFailure("encoding model", err)
	}
	if err := h.store.Put(h.schema.typeName, req.Identifier, raw); err != nil {
		return h.storeFailure(req.Identifier, err)
	}
	return cloudcontrol.Success(h.schema.answer(desired))
}

// Delete removes the resource.
func (h *handler) Delete(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	if _, ev := h.load(req.Identifier); ev != nil {
		return ev
	}
	if ev := h.wait(req); ev != nil {
		return ev
	}
	if err := h.store.Delete(h.schema.typeName, req.Identifier); err != nil {
		return h.storeFailure(req.Identifier, err)
	}
	return &cloudcontrol.ProgressEvent{Status: cloudcontrol.StatusSuccess}
}

// validate answers FAILED when model does not meet the schema: with
// InvalidRequest and CloudFormation's message for the caller's mistakes,
// with InvalidTypeConfiguration when the schema itself does not compile.
func (h *handler) validate(model map[string]any) *cloudcontrol.ProgressEvent {
	err := h.valid.validate(model)
	if err == nil {
		return nil
	}
	var invalid *invalidModel
	if errors.As(err, &invalid) {
		return cloudcontrol.Failed(cloudcontrol.CodeInvalidRequest, invalid.Error())
	}
	return cloudcontrol.Failed(cloudcontrol.CodeInvalidTypeConfiguration, err.Error())
}

// wait answers the first step of a mutating operation with IN_PROGRESS
// when the handler has latency; nil when the operation should go on.
func (h *handler) wait(req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	if h.latency <= 0 || req.CallbackContext[callbackKey] != nil {
		return nil
	}
	return cloudcontrol.InProgress(h.latency, map[string]any{callbackKey: "waited"})
}

// load reads and decodes a stored model; FAILED NotFound when absent.
func (h *handler) load(id string) (map[string]any, *cloudcontrol.ProgressEvent) {
	raw, err := h.store.Get(h.schema.typeName, id)
	if err != nil {
		return nil, h.storeFailure(id, err)
	}
	model, err := decodeObject(raw)
	if err != nil {
		return nil, internalFailure(fmt.Sprintf("decoding stored model %s", id), err)
	}
	return model, nil
}

// storeFailure turns a Store error into the event Cloud Control answers.
func (h *handler) storeFailure(id string, err error) *cloudcontrol.ProgressEvent {
	switch {
	case errors.Is(err, cloudcontrol.ErrNotFound):
		return cloudcontrol.Failed(cloudcontrol.CodeNotFound,
			fmt.Sprintf("Resource of type '%s' with identifier '%s' was not found.", h.schema.typeName, id))
	case errors.Is(err, cloudcontrol.ErrExists):
		return cloudcontrol.Failed(cloudcontrol.CodeAlreadyExists,
			fmt.Sprintf("Resource of type '%s' with identifier '%s' already exists.", h.schema.typeName, id))
	}
	return cloudcontrol.Failed(cloudcontrol.CodeServiceInternalError,
		fmt.Sprintf("storing %s %s: %v", h.schema.typeName, id, err))
}

// internalFailure reports a broken invariant of the emulator itself.
func internalFailure(what string, err error) *cloudcontrol.ProgressEvent {
	return cloudcontrol.Failed(cloudcontrol.CodeHandlerInternalFailure, fmt.Sprintf("%s: %v", what, err))
}
