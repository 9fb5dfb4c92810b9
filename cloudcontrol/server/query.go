package server

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// resourceCall decodes the input every resource operation takes and
// resolves its type; needID refuses an input without an Identifier.
func (s *Server) resourceCall(body []byte, needID bool) (resourceInput, *typeInfo, error) {
	var in resourceInput
	if err := decodeInput(body, &in); err != nil {
		return in, nil, err
	}
	err := checkLengths(
		lengthRule{"desiredState", in.DesiredState, maxProperties},
		lengthRule{"patchDocument", in.PatchDocument, maxProperties},
		lengthRule{"resourceModel", in.ResourceModel, maxProperties},
	)
	if err != nil {
		return in, nil, err
	}
	ti, err := s.typeInfo(in.TypeName)
	if err != nil {
		return in, nil, err
	}
	if needID && in.Identifier == "" {
		return in, nil, newError("InvalidRequestException", "Identifier is required")
	}
	return in, ti, nil
}

func (s *Server) getResource(c *call, body []byte) (any, error) {
	in, ti, err := s.resourceCall(body, true)
	if err != nil {
		return nil, err
	}
	model, err := s.read(ti, in.Identifier)
	if err != nil {
		return nil, err
	}
	id, err := ti.identifier(model)
	if err != nil {
		id = in.Identifier
	}
	return getResourceOutput{TypeName: ti.Name, ResourceDescription: resourceDescription{
		Identifier: id, Properties: encodeModel(ti.public(model)),
	}}, nil
}

func (s *Server) listResources(c *call, body []byte) (any, error) {
	in, ti, err := s.resourceCall(body, false)
	if err != nil {
		return nil, err
	}
	var filter map[string]any
	if in.ResourceModel != "" {
		if filter, err = decodeModel(in.ResourceModel); err != nil {
			return nil, newError("InvalidRequestException", "ResourceModel: "+err.Error())
		}
	}
	ev := s.invokeSync(ti, func(h cloudcontrol.Handler, req *cloudcontrol.Request) *cloudcontrol.ProgressEvent {
		req.Desired, req.NextToken, req.MaxResults = filter, in.NextToken, in.MaxResults
		return h.List(s.ctx, req)
	})
	if err := syncError(ti, "", ev); err != nil {
		return nil, err
	}
	out := listResourcesOutput{TypeName: ti.Name, NextToken: ev.NextToken,
		ResourceDescriptions: make([]resourceDescription, 0, len(ev.Models))}
	for _, m := range ev.Models {
		id, err := ti.identifier(m)
		if err != nil {
			return nil, newError("HandlerInternalFailureException", err.Error())
		}
		out.ResourceDescriptions = append(out.ResourceDescriptions,
			resourceDescription{Identifier: id, Properties: encodeModel(ti.public(m))})
	}
	return out, nil
}

func (s *Server) getRequestStatus(c *call, body []byte) (any, error) {
	var in requestTokenInput
	if err := decodeInput(body, &in); err != nil {
		return nil, err
	}
	c.token = in.RequestToken
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[in.RequestToken]
	if e == nil {
		return nil, tokenNotFound(in.RequestToken)
	}
	c.typeName, c.status = e.rec.TypeName, string(e.rec.Status)
	if e.rec.Status.Terminal() && !e.noticed {
		e.noticed = true
		if len(s.notices) >= maxNotices {
			s.notices = append(s.notices[:0], s.notices[maxNotices/2:]...)
		}
		s.notices = append(s.notices, s.now().Sub(e.rec.EventTime))
	}
	return progressOutput{ProgressEvent: e.rec.event()}, nil
}

// maxNotices bounds the notice delays kept; a long-lived endpoint keeps
// the recent half when it fills.
const maxNotices = 100_000

// NoticeDelays returns, for every request whose end a status poll has
// reported, how long after the request ended that first poll came: how
// promptly clients notice finished operations (HashiCorp's awscc polls
// no faster than every five seconds). Oldest first.
func (s *Server) NoticeDelays() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.notices...)
}

func tokenNotFound(token string) error {
	return newError("RequestTokenNotFoundException", "Request with token "+token+" was not found")
}

// cancelRequest marks an unfinished request CANCEL_IN_PROGRESS and wakes
// its runner, which completes the cancel instead of its next step.
func (s *Server) cancelRequest(c *call, body []byte) (any, error) {
	var in requestTokenInput
	if err := decodeInput(body, &in); err != nil {
		return nil, err
	}
	c.token = in.RequestToken
	s.mu.Lock()
	e := s.entries[in.RequestToken]
	s.mu.Unlock()
	if e == nil {
		return nil, tokenNotFound(in.RequestToken)
	}
	var refused bool
	ev, err := s.update(e, func(r *record) bool {
		if r.Status != cloudcontrol.StatusPending && r.Status != cloudcontrol.StatusInProgress {
			refused = true
			return false
		}
		r.Status = cloudcontrol.StatusCancelInProgress
		r.Message = "cancel requested"
		// The wait the request asked for was for its work, which
		// stops: the cancel completes at once.
		r.RetryAfter = time.Time{}
		return true
	})
	if err != nil {
		return nil, err
	}
	if refused {
		return nil, newError("ConcurrentModificationException", "Request "+in.RequestToken+
			" cannot be cancelled: its status is "+ev.OperationStatus)
	}
	select {
	case e.wake <- struct{}{}:
	default:
	}
	c.status = ev.OperationStatus
	return progressOutput{ProgressEvent: ev}, nil
}

// listRequests answers ListResourceRequests newest first. NextToken is
// an opaque offset into that order.
func (s *Server) listRequests(c *call, body []byte) (any, error) {
	var in listRequestsInput
	if err := decodeInput(body, &in); err != nil {
		return nil, err
	}
	offset, ok := requestsPageOffset(in.NextToken)
	if !ok {
		return nil, newError("InvalidRequestException", fmt.Sprintf(
			"Invalid NextToken: %q is not a token a ListResourceRequests returned", in.NextToken))
	}
	limit := in.MaxResults
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	all := s.matchingRequests(in)
	out := listRequestsOutput{ResourceRequestStatusSummaries: []progressEvent{}}
	if offset < len(all) {
		end := min(offset+limit, len(all))
		out.ResourceRequestStatusSummaries = all[offset:end]
		if end < len(all) {
			out.NextToken = requestsPageToken(end)
		}
	}
	return out, nil
}

// requestsPagePrefix marks a ListResourceRequests NextToken, so that a
// token of anything else is recognised as not one.
const requestsPagePrefix = "requests:"

// requestsPageToken is the NextToken of the page starting at offset.
func requestsPageToken(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(requestsPagePrefix + strconv.Itoa(offset)))
}

// requestsPageOffset reads a NextToken: 0 for none, false for a token
// requestsPageToken did not make.
func requestsPageOffset(token string) (int, bool) {
	if token == "" {
		return 0, true
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return 0, false
	}
	digits, ok := strings.CutPrefix(string(raw), requestsPagePrefix)
	offset, err := strconv.Atoi(digits)
	return offset, ok && err == nil && offset > 0
}

func (s *Server) matchingRequests(in listRequestsInput) []progressEvent {
	var ops, statuses []string
	if in.Filter != nil {
		ops, statuses = in.Filter.Operations, in.Filter.OperationStatuses
	}
	s.mu.Lock()
	var recs []record
	for _, e := range s.entries {
		r := e.rec
		if len(ops) > 0 && !slices.Contains(ops, r.Operation) {
			continue
		}
		if len(statuses) > 0 && !slices.Contains(statuses, string(r.Status)) {
			continue
		}
		recs = append(recs, *r)
	}
	s.mu.Unlock()
	// Acceptance order keeps pages stable while requests progress.
	slices.SortFunc(recs, func(a, b record) int {
		if c := b.Accepted.Compare(a.Accepted); c != 0 {
			return c
		}
		return strings.Compare(a.Token, b.Token)
	})
	out := make([]progressEvent, len(recs))
	for i := range recs {
		out[i] = recs[i].event()
	}
	return out
}
