package emulator

import (
	"context"
	"encoding/base64"
	"errors"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// defaultPageSize is the page size when the caller gives no MaxResults.
const defaultPageSize = 100

// List returns one page of stored models, write-only values removed. Its
// NextToken is the last identifier of the page, encoded so that callers
// treat it as opaque.
func (h *handler) List(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	after, err := base64.RawURLEncoding.DecodeString(req.NextToken)
	if err != nil {
		return cloudcontrol.Failed(cloudcontrol.CodeInvalidRequest, "Invalid NextToken")
	}
	limit := req.MaxResults
	if limit <= 0 {
		limit = defaultPageSize
	}
	ids, more, err := h.store.List(h.schema.typeName, string(after), limit)
	if err != nil {
		return h.storeFailure("", err)
	}
	page := &cloudcontrol.ProgressEvent{Status: cloudcontrol.StatusSuccess, Models: make([]map[string]any, 0, len(ids))}
	for _, id := range ids {
		raw, err := h.store.Get(h.schema.typeName, id)
		if errors.Is(err, cloudcontrol.ErrNotFound) {
			// Deleted since the listing: not part of the page.
			continue
		}
		if err != nil {
			return h.storeFailure(id, err)
		}
		model, err := decodeObject(raw)
		if err != nil {
			return internalFailure("decoding stored model "+id, err)
		}
		page.Models = append(page.Models, h.schema.answer(model))
	}
	if more && len(ids) > 0 {
		page.NextToken = base64.RawURLEncoding.EncodeToString([]byte(ids[len(ids)-1]))
	}
	return page
}
