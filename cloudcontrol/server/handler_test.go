package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// memHandler is a small Handler over a real cloudcontrol.Store: it keeps
// the desired model as the resource, adds Arn, and names resources
// without a name after the ClientToken. steps IN_PROGRESS events of
// delay each precede every Create, Update and Delete.
type memHandler struct {
	store    cloudcontrol.Store
	typeName string
	idProp   string
	steps    int
	delay    time.Duration
	// invocations counts mutating steps, so tests can tell whether a
	// cancelled request kept running.
	invocations atomic.Int64
	// gate, when set, holds every step after the IN_PROGRESS ones until
	// it is closed or the server stops.
	gate chan struct{}
}

var _ cloudcontrol.Handler = (*memHandler)(nil)

func (h *memHandler) wait(ctx context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	h.invocations.Add(1)
	if req.Step <= h.steps {
		return cloudcontrol.InProgress(h.delay, map[string]any{"step": req.Step})
	}
	if h.gate != nil {
		select {
		case <-h.gate:
		case <-ctx.Done():
			return cloudcontrol.Failed(cloudcontrol.CodeServiceTimeout, "server stopping")
		}
	}
	return nil
}

func (h *memHandler) Create(ctx context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	if ev := h.wait(ctx, req); ev != nil {
		// Name the resource early, as handlers do once AWS has.
		if id, ok := req.Desired[h.idProp]; ok && ev.Status == cloudcontrol.StatusInProgress {
			ev.Model = map[string]any{h.idProp: id}
		}
		return ev
	}
	model := req.Desired
	id, _ := model[h.idProp].(string)
	if id == "" {
		id = "gen-" + req.ClientToken
		model[h.idProp] = id
	}
	model["Arn"] = "arn:aws:test:::" + id
	// A create re-run after a restart finds its own earlier insert.
	owner := "owner/" + h.typeName
	if err := h.store.Insert(owner, id, []byte(req.ClientToken)); err != nil {
		got, _ := h.store.Get(owner, id)
		if string(got) != req.ClientToken {
			return cloudcontrol.Failed(cloudcontrol.CodeAlreadyExists, id+" already exists")
		}
	}
	b, _ := json.Marshal(model)
	if err := h.store.Insert(h.typeName, id, b); err != nil && !errors.Is(err, cloudcontrol.ErrExists) {
		return cloudcontrol.Failed(cloudcontrol.CodeServiceInternalError, err.Error())
	}
	return cloudcontrol.Success(model)
}

func (h *memHandler) Read(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	b, err := h.store.Get(h.typeName, req.Identifier)
	if errors.Is(err, cloudcontrol.ErrNotFound) {
		return cloudcontrol.Failed(cloudcontrol.CodeNotFound, req.Identifier+" not found")
	}
	if err != nil {
		return cloudcontrol.Failed(cloudcontrol.CodeServiceInternalError, err.Error())
	}
	m, err := decodeModel(string(b))
	if err != nil {
		return cloudcontrol.Failed(cloudcontrol.CodeServiceInternalError, err.Error())
	}
	return cloudcontrol.Success(m)
}

func (h *memHandler) Update(ctx context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	if ev := h.wait(ctx, req); ev != nil {
		return ev
	}
	b, _ := json.Marshal(req.Desired)
	if err := h.store.Put(h.typeName, req.Identifier, b); err != nil {
		return cloudcontrol.Failed(cloudcontrol.CodeNotFound, err.Error())
	}
	return cloudcontrol.Success(req.Desired)
}

func (h *memHandler) Delete(ctx context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	if ev := h.wait(ctx, req); ev != nil {
		return ev
	}
	if err := h.store.Delete(h.typeName, req.Identifier); err != nil {
		return cloudcontrol.Failed(cloudcontrol.CodeNotFound, err.Error())
	}
	return &cloudcontrol.ProgressEvent{Status: cloudcontrol.StatusSuccess}
}

func (h *memHandler) List(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	ids, more, err := h.store.List(h.typeName, req.NextToken, req.MaxResults)
	if err != nil {
		return cloudcontrol.Failed(cloudcontrol.CodeServiceInternalError, err.Error())
	}
	ev := &cloudcontrol.ProgressEvent{Status: cloudcontrol.StatusSuccess}
	for _, id := range ids {
		b, err := h.store.Get(h.typeName, id)
		if err != nil {
			continue
		}
		m, _ := decodeModel(string(b))
		ev.Models = append(ev.Models, m)
	}
	if more && len(ids) > 0 {
		ev.NextToken = ids[len(ids)-1]
	}
	return ev
}

// realSchema reads a CloudFormation registry schema from the shared
// corpus, so pointers are tested on what AWS publishes.
func realSchema(t testing.TB, typeName string) []byte {
	t.Helper()
	name := bytes.ReplaceAll([]byte(typeName), []byte("::"), []byte("_"))
	b, err := os.ReadFile(filepath.Join("/work/shared/cfn-schemas", string(name)+".json"))
	if err != nil {
		t.Skipf("schema corpus not available: %v", err)
	}
	return b
}
