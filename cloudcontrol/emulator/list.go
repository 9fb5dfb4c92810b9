package emulator

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// defaultPageSize is the page size when the caller gives no MaxResults.
const defaultPageSize = 100

// List returns one page of stored models, write-only values removed. Its
// NextToken names the last identifier of the page (see pageToken); a
// token this handler did not issue is refused with InvalidRequest, as
// Cloud Control refuses one, rather than read as an empty page.
func (h *handler) List(_ context.Context, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
	after, ok := h.pageAfter(req.NextToken)
	if !ok {
		return cloudcontrol.Failed(cloudcontrol.CodeInvalidRequest,
			fmt.Sprintf("Invalid NextToken: %q is not a token a ListResources of %s returned", req.NextToken, h.schema.typeName))
	}
	limit := req.MaxResults
	if limit <= 0 {
		limit = defaultPageSize
	}
	ids, more, err := h.store.List(h.schema.typeName, after, limit)
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
		page.NextToken = h.pageToken(ids[len(ids)-1])
	}
	return page
}

// pageToken is the NextToken after identifier id: the type name and id,
// so that a token is recognised as this type's, encoded so that callers
// treat it as opaque.
func (h *handler) pageToken(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(h.schema.typeName + "\x00" + id))
}

// pageAfter reads a NextToken: the identifier to list after ("" for the
// first page), and false for a token pageToken did not make.
func (h *handler) pageAfter(token string) (string, bool) {
	if token == "" {
		return "", true
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return "", false
	}
	id, ok := strings.CutPrefix(string(raw), h.schema.typeName+"\x00")
	return id, ok && id != ""
}
