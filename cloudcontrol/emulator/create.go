package emulator

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// create makes the resource from a validated desired model. Under
// createMu it first recognises a re-run of the same operation by its
// ClientToken, then records token → identifier before inserting the model,
// so that a step re-run after a crash between the two finds the record and
// inserts the same model (the generator is seeded by the token).
func (h *handler) create(req *cloudcontrol.Request, model map[string]any) *cloudcontrol.ProgressEvent {
	h.createMu.Lock()
	defer h.createMu.Unlock()
	if ev := h.rerun(req); ev != nil {
		return ev
	}
	h.schema.fillDefaults(model)
	g := newGenerator(h.schema, req.ClientToken, req.Region, req.Account, h.now(), model)
	g.patterns = h.patterns
	g.populate(h.shapes)
	id, err := h.schema.identifierOf(model)
	if err != nil {
		return internalFailure("assigning identifier", err)
	}
	raw, err := json.Marshal(model)
	if err != nil {
		return internalFailure("encoding model", err)
	}
	if err := h.recordToken(req.ClientToken, id); err != nil {
		return h.storeFailure(id, err)
	}
	if err := h.store.Insert(h.schema.typeName, id, raw); err != nil {
		// The identifier belongs to another operation's resource: the
		// record must not make a re-run of this one claim it.
		h.forgetToken(req.ClientToken)
		return h.storeFailure(id, err)
	}
	return cloudcontrol.Success(h.schema.answer(model))
}

// rerun answers a create whose ClientToken already made a resource that
// still exists with that resource; nil when the create must go on.
func (h *handler) rerun(req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	if req.ClientToken == "" {
		return nil
	}
	raw, err := h.store.Get(ClientTokenType, h.tokenKey(req.ClientToken))
	if errors.Is(err, cloudcontrol.ErrNotFound) {
		return nil
	}
	if err != nil {
		return internalFailure("reading client token record", err)
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil {
		return internalFailure("decoding client token record", err)
	}
	model, ev := h.load(id)
	if ev != nil && ev.ErrorCode == cloudcontrol.CodeNotFound {
		// Recorded but never inserted: the step crashed in between.
		return nil
	}
	if ev != nil {
		return ev
	}
	return cloudcontrol.Success(h.schema.answer(model))
}

// recordToken stores token → identifier; no token, no record.
func (h *handler) recordToken(token, id string) error {
	if token == "" {
		return nil
	}
	raw, err := json.Marshal(id)
	if err != nil {
		return err
	}
	key := h.tokenKey(token)
	err = h.store.Insert(ClientTokenType, key, raw)
	if errors.Is(err, cloudcontrol.ErrExists) {
		err = h.store.Put(ClientTokenType, key, raw)
	}
	if err != nil {
		return fmt.Errorf("recording client token: %w", err)
	}
	return nil
}

// forgetToken removes a token record, best effort: a leftover record
// only matters if its identifier's resource exists and the same token is
// used again.
func (h *handler) forgetToken(token string) {
	if token != "" {
		_ = h.store.Delete(ClientTokenType, h.tokenKey(token))
	}
}

// tokenKey keys a token record by type too: tokens are the caller's, and
// one token may be reused across types.
func (h *handler) tokenKey(token string) string {
	return h.schema.typeName + "|" + token
}
