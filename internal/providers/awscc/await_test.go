package awscc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
)

// scriptedRequest is an api whose CancelResourceRequest answers cancel
// (or fails with cancelErr) and whose polls answer polls in turn, the
// last one repeated. Any other call panics: abandon makes none.
type scriptedRequest struct {
	api
	cancel    *cctypes.ProgressEvent
	cancelErr error
	polls     []*cctypes.ProgressEvent
}

func (s *scriptedRequest) CancelResourceRequest(context.Context, *cloudcontrol.CancelResourceRequestInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.CancelResourceRequestOutput, error) {
	if s.cancelErr != nil {
		return nil, s.cancelErr
	}
	return &cloudcontrol.CancelResourceRequestOutput{ProgressEvent: s.cancel}, nil
}

func (s *scriptedRequest) GetResourceRequestStatus(context.Context, *cloudcontrol.GetResourceRequestStatusInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceRequestStatusOutput, error) {
	ev := s.polls[0]
	if len(s.polls) > 1 {
		s.polls = s.polls[1:]
	}
	return &cloudcontrol.GetResourceRequestStatusOutput{ProgressEvent: ev}, nil
}

func event(status cctypes.OperationStatus, id string) *cctypes.ProgressEvent {
	ev := &cctypes.ProgressEvent{OperationStatus: status, Operation: cctypes.OperationCreate}
	if id != "" {
		ev.Identifier = aws.String(id)
	}
	return ev
}

func withRetryAfter(ev *cctypes.ProgressEvent, d time.Duration) *cctypes.ProgressEvent {
	ev.RetryAfter = aws.Time(time.Now().Add(d))
	return ev
}

// TestAbandon: a cancelled create is followed until it ends, and the
// identifier it got is returned, so the resource is recorded tainted
// rather than orphaned.
func TestAbandon(t *testing.T) {
	cases := map[string]struct {
		reason     string
		api        *scriptedRequest
		wantID     string
		wantStatus cctypes.OperationStatus
		wantErr    string
	}{
		"cancelled": {reason: "The cancel answer's identifier is kept while the cancel completes.",
			api: &scriptedRequest{cancel: event(cctypes.OperationStatusCancelInProgress, "id-1"),
				polls: []*cctypes.ProgressEvent{event(cctypes.OperationStatusCancelInProgress, ""), event(cctypes.OperationStatusCancelComplete, "")}},
			wantID: "id-1", wantStatus: cctypes.OperationStatusCancelComplete, wantErr: "was cancelled"},
		"completed anyway": {reason: "A request that ended SUCCESS before the cancel took returns its identifier.",
			api: &scriptedRequest{cancel: event(cctypes.OperationStatusInProgress, ""),
				polls: []*cctypes.ProgressEvent{event(cctypes.OperationStatusSuccess, "id-2")}},
			wantID: "id-2", wantStatus: cctypes.OperationStatusSuccess, wantErr: "completed before it could be cancelled"},
		"stale RetryAfter": {reason: "The request's RetryAfter was about its work; after the cancel the poll comes at the usual pace (else it waits the whole abandon time).",
			api: &scriptedRequest{cancel: withRetryAfter(event(cctypes.OperationStatusCancelInProgress, "id-4"), time.Hour),
				polls: []*cctypes.ProgressEvent{event(cctypes.OperationStatusCancelComplete, "")}},
			wantID: "id-4", wantStatus: cctypes.OperationStatusCancelComplete, wantErr: "was cancelled"},
		"cancel refused": {reason: "When the cancel call fails the request is still followed.",
			api: &scriptedRequest{cancelErr: errors.New("too late"),
				polls: []*cctypes.ProgressEvent{event(cctypes.OperationStatusSuccess, "id-3")}},
			wantID: "id-3", wantStatus: cctypes.OperationStatusSuccess, wantErr: "too late"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := &runtime{api: tc.api, stop: context.Background(), poll: fastPolls}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			start := event(cctypes.OperationStatusInProgress, "")
			start.RequestToken = aws.String("req-1")
			ev, err := r.abandon(ctx, start)
			if got := aws.ToString(ev.Identifier); got != tc.wantID || ev.OperationStatus != tc.wantStatus {
				t.Errorf("%s\ngot id %q status %s, want %q %s", tc.reason, got, ev.OperationStatus, tc.wantID, tc.wantStatus)
			}
			if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s\nerror %v, want the cause and %q", tc.reason, err, tc.wantErr)
			}
		})
	}
}
