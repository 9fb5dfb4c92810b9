package server

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/google/go-cmp/cmp"
)

// TestAPIErrors checks the synchronous refusals: each case prepares a
// bucket b1 (and anything in setup), makes one call and expects the
// exception the SDK decodes.
func TestAPIErrors(t *testing.T) {
	ctx := context.Background()
	cases := map[string]struct {
		reason string
		setup  func(h *harness)
		call   func(h *harness) error
		want   any
	}{
		"unknown type": {
			reason: "types are resolved lazily; an unknown one is TypeNotFoundException",
			call: func(h *harness) error {
				_, err := h.client.CreateResource(ctx, &ccapi.CreateResourceInput{
					TypeName: aws.String("AWS::No::Such"), DesiredState: aws.String(`{}`)})
				return err
			},
			want: &cctypes.TypeNotFoundException{},
		},
		"client token reused for other input": {
			reason: "same ClientToken, different DesiredState",
			setup: func(h *harness) {
				h.client.CreateResource(ctx, &ccapi.CreateResourceInput{TypeName: aws.String(bucketType),
					DesiredState: aws.String(`{"BucketName":"x1"}`), ClientToken: aws.String("tok")})
			},
			call: func(h *harness) error {
				_, err := h.client.CreateResource(ctx, &ccapi.CreateResourceInput{TypeName: aws.String(bucketType),
					DesiredState: aws.String(`{"BucketName":"x2"}`), ClientToken: aws.String("tok")})
				return err
			},
			want: &cctypes.ClientTokenConflictException{},
		},
		"get missing": {
			call: func(h *harness) error {
				_, err := h.client.GetResource(ctx, &ccapi.GetResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("nope")})
				return err
			},
			want: &cctypes.ResourceNotFoundException{},
		},
		"update missing": {
			call: func(h *harness) error {
				_, err := h.client.UpdateResource(ctx, &ccapi.UpdateResourceInput{TypeName: aws.String(bucketType),
					Identifier: aws.String("nope"), PatchDocument: aws.String(`[]`)})
				return err
			},
			want: &cctypes.ResourceNotFoundException{},
		},
		"malformed patch": {
			call: func(h *harness) error {
				_, err := h.client.UpdateResource(ctx, &ccapi.UpdateResourceInput{TypeName: aws.String(bucketType),
					Identifier: aws.String("b1"), PatchDocument: aws.String(`{"op":"add"}`)})
				return err
			},
			want: &cctypes.InvalidRequestException{},
		},
		"patch path missing": {
			call: func(h *harness) error {
				_, err := h.client.UpdateResource(ctx, &ccapi.UpdateResourceInput{TypeName: aws.String(bucketType),
					Identifier: aws.String("b1"), PatchDocument: aws.String(`[{"op":"replace","path":"/Nope/x","value":1}]`)})
				return err
			},
			want: &cctypes.InvalidRequestException{},
		},
		"second operation while one runs": {
			reason: "one operation at a time per resource",
			setup: func(h *harness) {
				h.srv.SetFault(Fault{TypeName: bucketType, Operation: "UpdateResource", Delay: hour})
				h.client.UpdateResource(ctx, &ccapi.UpdateResourceInput{TypeName: aws.String(bucketType),
					Identifier: aws.String("b1"), PatchDocument: aws.String(`[]`)})
			},
			call: func(h *harness) error {
				_, err := h.client.DeleteResource(ctx, &ccapi.DeleteResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("b1")})
				return err
			},
			want: &cctypes.ConcurrentOperationException{},
		},
		"operation on a resource being created": {
			reason: "a create claims its resource once the handler names it",
			setup: func(h *harness) {
				mh := h.handlers[bucketType]
				mh.steps, mh.delay = 1, hour
				ev := h.create(bucketType, `{"BucketName":"b2"}`)
				for {
					out, _ := h.client.GetResourceRequestStatus(ctx, &ccapi.GetResourceRequestStatusInput{RequestToken: ev.RequestToken})
					if out != nil && aws.ToString(out.ProgressEvent.Identifier) == "b2" {
						return
					}
					time.Sleep(time.Millisecond)
				}
			},
			call: func(h *harness) error {
				_, err := h.client.DeleteResource(ctx, &ccapi.DeleteResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("b2")})
				return err
			},
			want: &cctypes.ConcurrentOperationException{},
		},
		"status of unknown token": {
			call: func(h *harness) error {
				_, err := h.client.GetResourceRequestStatus(ctx, &ccapi.GetResourceRequestStatusInput{RequestToken: aws.String("nope")})
				return err
			},
			want: &cctypes.RequestTokenNotFoundException{},
		},
		"cancel of a finished request": {
			reason: "only PENDING or IN_PROGRESS requests can be cancelled",
			call: func(h *harness) error {
				tok := h.lastToken()
				_, err := h.client.CancelResourceRequest(ctx, &ccapi.CancelResourceRequestInput{RequestToken: tok})
				return err
			},
			want: &cctypes.ConcurrentModificationException{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.mustSucceed(h.create(bucketType, `{"BucketName":"b1"}`))
			if tc.setup != nil {
				tc.setup(h)
			}
			err := tc.call(h)
			if !errors.As(err, targetOf(tc.want)) {
				t.Errorf("%s: got %v, want %T", tc.reason, err, tc.want)
			}
		})
	}
}

// TestMutationOutcomes checks requests that are accepted and end in a
// given status and error code.
func TestMutationOutcomes(t *testing.T) {
	ctx := context.Background()
	cases := map[string]struct {
		reason   string
		call     func(h *harness) (*cctypes.ProgressEvent, error)
		want     cctypes.OperationStatus
		wantCode cctypes.HandlerErrorCode
	}{
		"delete missing": {
			reason: "Cloud Control accepts the delete and fails it with NotFound",
			call: func(h *harness) (*cctypes.ProgressEvent, error) {
				out, err := h.client.DeleteResource(ctx, &ccapi.DeleteResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("nope")})
				if err != nil {
					return nil, err
				}
				return out.ProgressEvent, nil
			},
			want: cctypes.OperationStatusFailed, wantCode: cctypes.HandlerErrorCodeNotFound,
		},
		"update of createOnly": {
			reason: "BucketName is createOnly",
			call: func(h *harness) (*cctypes.ProgressEvent, error) {
				out, err := h.client.UpdateResource(ctx, &ccapi.UpdateResourceInput{TypeName: aws.String(bucketType),
					Identifier: aws.String("b1"), PatchDocument: aws.String(`[{"op":"replace","path":"/BucketName","value":"b2"}]`)})
				if err != nil {
					return nil, err
				}
				return out.ProgressEvent, nil
			},
			want: cctypes.OperationStatusFailed, wantCode: cctypes.HandlerErrorCodeNotUpdatable,
		},
		"update of createOnly to the same value": {
			reason: "replacing a createOnly value with itself is no change",
			call: func(h *harness) (*cctypes.ProgressEvent, error) {
				out, err := h.client.UpdateResource(ctx, &ccapi.UpdateResourceInput{TypeName: aws.String(bucketType),
					Identifier: aws.String("b1"), PatchDocument: aws.String(`[{"op":"replace","path":"/BucketName","value":"b1"}]`)})
				if err != nil {
					return nil, err
				}
				return out.ProgressEvent, nil
			},
			want: cctypes.OperationStatusSuccess,
		},
		"create of an existing name": {
			reason: "the handler's AlreadyExists ends the request",
			call: func(h *harness) (*cctypes.ProgressEvent, error) {
				out, err := h.client.CreateResource(ctx, &ccapi.CreateResourceInput{TypeName: aws.String(bucketType),
					DesiredState: aws.String(`{"BucketName":"b1"}`)})
				if err != nil {
					return nil, err
				}
				return out.ProgressEvent, nil
			},
			want: cctypes.OperationStatusFailed, wantCode: cctypes.HandlerErrorCodeAlreadyExists,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.mustSucceed(h.create(bucketType, `{"BucketName":"b1"}`))
			ev, err := tc.call(h)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			final := h.wait(ev.RequestToken)
			got := []string{string(final.OperationStatus), string(final.ErrorCode)}
			if diff := cmp.Diff([]string{string(tc.want), string(tc.wantCode)}, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestClientTokenIdempotency: repeating a call with its ClientToken
// returns the first request, not a second resource.
func TestClientTokenIdempotency(t *testing.T) {
	h := newHarness(t, nil)
	in := &ccapi.CreateResourceInput{TypeName: aws.String(logGroupType),
		DesiredState: aws.String(`{"LogGroupName":"g"}`), ClientToken: aws.String("same")}
	a, err := h.client.CreateResource(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	h.mustSucceed(a.ProgressEvent)
	b, err := h.client.CreateResource(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{aws.ToString(b.ProgressEvent.RequestToken), string(b.ProgressEvent.OperationStatus)}
	want := []string{aws.ToString(a.ProgressEvent.RequestToken), string(cctypes.OperationStatusSuccess)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("repeated create (-want +got):\n%s", diff)
	}
}

// targetOf returns a pointer to a nil error of want's type, for
// errors.As.
func targetOf(want any) any {
	return reflect.New(reflect.TypeOf(want)).Interface()
}

// hour is a delay no test waits out.
const hour = time.Hour

// lastToken returns the token of the newest request.
func (h *harness) lastToken() *string {
	out, err := h.client.ListResourceRequests(context.Background(), &ccapi.ListResourceRequestsInput{})
	if err != nil || len(out.ResourceRequestStatusSummaries) == 0 {
		h.t.Fatalf("ListResourceRequests: %v", err)
	}
	return out.ResourceRequestStatusSummaries[0].RequestToken
}

// TestCreateRefusesReadOnly: a DesiredState that sets a read-only
// property is accepted and fails InvalidRequest, naming the property, as
// CloudFormation's handlers answer; nothing is made. It used to be
// dropped silently.
func TestCreateRefusesReadOnly(t *testing.T) {
	h := newHarness(t, nil)
	final := h.wait(h.create(logGroupType, `{"LogGroupName":"g","Arn":"arn:aws:logs:us-east-1:123456789012:log-group:g:*"}`).RequestToken)
	got := []string{string(final.OperationStatus), string(final.ErrorCode), aws.ToString(final.StatusMessage)}
	want := []string{"FAILED", "InvalidRequest", "Invalid Create: cannot create a resource using ReadOnly properties [/properties/Arn]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("create with a read-only value (-want +got):\n%s", diff)
	}
	if _, err := h.db.Get(logGroupType, "g"); err == nil {
		t.Error("the refused create made the resource")
	}
	h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"g"}`))
}
