package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/google/go-cmp/cmp"
)

// TestFaultFail: an injected failure of a create comes after the
// resource exists, with its identifier, so a client can taint it.
func TestFaultFail(t *testing.T) {
	h := newHarness(t, func(h *harness) {
		h.opts.Faults = []Fault{{TypeName: bucketType, Operation: "CREATE", ErrorCode: "NotStabilized", Message: "injected"}}
	})
	final := h.wait(h.create(bucketType, `{"BucketName":"f1"}`).RequestToken)
	got := []string{string(final.OperationStatus), string(final.ErrorCode), aws.ToString(final.StatusMessage), aws.ToString(final.Identifier)}
	if diff := cmp.Diff([]string{"FAILED", "NotStabilized", "injected", "f1"}, got); diff != "" {
		t.Errorf("failed create (-want +got):\n%s", diff)
	}
	if _, err := h.db.Get(bucketType, "f1"); err != nil {
		t.Errorf("the resource of a failed create should exist: %v", err)
	}
	// A fault on another type leaves this one alone.
	h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"g"}`))
}

// TestFaultSlow: a delayed request is seen IN_PROGRESS until the delay
// is over, and then succeeds.
func TestFaultSlow(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.srv.SetFault(Fault{Operation: "CreateResource", Delay: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	first := h.create(logGroupType, `{"LogGroupName":"slow"}`)
	seen := map[cctypes.OperationStatus]bool{}
	for {
		out, err := h.client.GetResourceRequestStatus(context.Background(), &ccapi.GetResourceRequestStatusInput{RequestToken: first.RequestToken})
		if err != nil {
			t.Fatal(err)
		}
		seen[out.ProgressEvent.OperationStatus] = true
		if cloudcontrolTerminal(out.ProgressEvent) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	want := map[cctypes.OperationStatus]bool{"IN_PROGRESS": true, "SUCCESS": true}
	delete(seen, "PENDING")
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("statuses seen (-want +got):\n%s", diff)
	}
}

// TestFaultThrottle: the next N matching calls, of any operation, are
// throttled; then calls go through.
func TestFaultThrottle(t *testing.T) {
	h := newHarness(t, nil)
	tok := h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"g"}`)).RequestToken
	h.srv.SetFault(Fault{Operation: "GetResourceRequestStatus", Throttle: 2})
	var got []bool
	for range 3 {
		_, err := h.client.GetResourceRequestStatus(context.Background(), &ccapi.GetResourceRequestStatusInput{RequestToken: tok})
		// GetResourceRequestStatus has no modelled ThrottlingException;
		// the SDK reports it as a generic API error with that code.
		var ae smithy.APIError
		got = append(got, errors.As(err, &ae) && ae.ErrorCode() == "ThrottlingException")
	}
	if diff := cmp.Diff([]bool{true, true, false}, got); diff != "" {
		t.Errorf("throttled calls (-want +got):\n%s", diff)
	}
}

// TestFaultHeader: X-Cairn-Fault fails one request only.
func TestFaultHeader(t *testing.T) {
	h := newHarness(t, nil)
	out, err := h.client.CreateResource(context.Background(), &ccapi.CreateResourceInput{
		TypeName: aws.String(logGroupType), DesiredState: aws.String(`{"LogGroupName":"g"}`)},
		withHeader(faultHeader, `{"errorCode":"ServiceLimitExceeded","message":"quota"}`))
	if err != nil {
		t.Fatal(err)
	}
	final := h.wait(out.ProgressEvent.RequestToken)
	if final.ErrorCode != cctypes.HandlerErrorCodeServiceLimitExceeded {
		t.Errorf("header fault: %s %s", final.OperationStatus, final.ErrorCode)
	}
	h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"g2"}`))
}

// TestFaultAdminAPI sets and clears faults over HTTP.
func TestFaultAdminAPI(t *testing.T) {
	h := newHarness(t, nil)
	resp, err := http.Post(h.http.URL+"/_cairn/faults", "application/json",
		strings.NewReader(`{"typeName":"AWS::Logs::LogGroup","operation":"CreateResource","throttle":1,"delay":"1ms"}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST faults: %v %v", resp, err)
	}
	resp.Body.Close()
	want := []Fault{{TypeName: logGroupType, Operation: "CreateResource", Throttle: 1, Delay: time.Millisecond}}
	if diff := cmp.Diff(want, h.srv.faults.list()); diff != "" {
		t.Errorf("installed faults (-want +got):\n%s", diff)
	}
	req, _ := http.NewRequest(http.MethodDelete, h.http.URL+"/_cairn/faults", nil)
	if resp, err = http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE faults: %v %v", resp, err)
	}
	resp.Body.Close()
	if got := h.srv.faults.list(); len(got) != 0 {
		t.Errorf("faults after DELETE: %v", got)
	}
	// The admin API is not reachable as an operation.
	resp, err = http.Post(h.http.URL+"/_cairn/faults", "application/json", strings.NewReader(`{}`))
	if err == nil {
		resp.Body.Close()
	}
	req, _ = http.NewRequest(http.MethodPost, h.http.URL+"/_cairn/faults", strings.NewReader(`{"throttle":5}`))
	req.Header.Set("X-Amz-Target", "CloudApiService.SetFault")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Errorf("admin API answered under X-Amz-Target")
	}
}

// TestCancel: a cancelled request ends CANCEL_COMPLETE and its handler is
// not called again.
func TestCancel(t *testing.T) {
	h := newHarness(t, func(h *harness) {
		h.handlers[logGroupType].steps = 1
		h.handlers[logGroupType].delay = hour
	})
	first := h.create(logGroupType, `{"LogGroupName":"c"}`)
	for h.handlers[logGroupType].invocations.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	out, err := h.client.CancelResourceRequest(context.Background(), &ccapi.CancelResourceRequestInput{RequestToken: first.RequestToken})
	if err != nil {
		t.Fatal(err)
	}
	final := h.wait(first.RequestToken)
	got := []string{string(out.ProgressEvent.OperationStatus), string(final.OperationStatus)}
	if diff := cmp.Diff([]string{"CANCEL_IN_PROGRESS", "CANCEL_COMPLETE"}, got); diff != "" {
		t.Errorf("cancel statuses (-want +got):\n%s", diff)
	}
	if n := h.handlers[logGroupType].invocations.Load(); n != 1 {
		t.Errorf("handler invoked %d times, want 1 (none after cancel)", n)
	}
	if ra := out.ProgressEvent.RetryAfter; ra != nil {
		t.Errorf("the cancel answer keeps the handler's RetryAfter %v; clients would wait an hour for a cancel that is immediate", ra)
	}
}

func cloudcontrolTerminal(ev *cctypes.ProgressEvent) bool {
	switch ev.OperationStatus {
	case cctypes.OperationStatusSuccess, cctypes.OperationStatusFailed, cctypes.OperationStatusCancelComplete:
		return true
	}
	return false
}

// withHeader adds a header to one SDK call.
func withHeader(key, value string) func(*ccapi.Options) {
	return func(o *ccapi.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Build.Add(middleware.BuildMiddlewareFunc("cairnHeader",
				func(ctx context.Context, in middleware.BuildInput, next middleware.BuildHandler) (middleware.BuildOutput, middleware.Metadata, error) {
					if req, ok := in.Request.(*smithyhttp.Request); ok {
						req.Header.Set(key, value)
					}
					return next.HandleBuild(ctx, in)
				}), middleware.After)
		})
	}
}
