package reconciler

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

func TestWithoutRequestIDs(t *testing.T) {
	cases := map[string]struct {
		reason string
		msg    string
		want   string
	}{
		"CloudControlRequestToken": {
			reason: "Cloud Control's request token, as the awscc provider names a failed request",
			msg:    "Cannot update AWS::Logs::LogGroup: update request 3f2b6c1e-9a0d-4c8e-b7a1-0e5d2c4f6a88 failed: Model validation failed (#/RetentionInDays: failed validation constraint for keyword [enum]) (error code InvalidRequest)",
			want:   "Cannot update AWS::Logs::LogGroup: update request failed: Model validation failed (#/RetentionInDays: failed validation constraint for keyword [enum]) (error code InvalidRequest)",
		},
		"SDKv2ResponseError": {
			reason: "aws-sdk-go-v2's https response error",
			msg:    "operation error CloudControl: UpdateResource, https response error StatusCode: 400, RequestID: 0c8f1d2e-55aa-4b1c-9d3e-7f6a5b4c3d2e, ValidationException: Invalid patch",
			want:   "operation error CloudControl: UpdateResource, https response error StatusCode: 400, ValidationException: Invalid patch",
		},
		"SDKv1RequestFailure": {
			reason: "aws-sdk-go's request failure, on a second line",
			msg:    "DependencyViolation: The vpc 'vpc-0dcc11278872d11b7' has dependencies and cannot be deleted.\n\tstatus code: 400, request id: f6f7e648-cbd1-40f3-8df4-5c4077c0c595",
			want:   "DependencyViolation: The vpc 'vpc-0dcc11278872d11b7' has dependencies and cannot be deleted.\n\tstatus code: 400",
		},
		"JSONField": {
			reason: "a request id in a JSON error body",
			msg:    `{"errorCode": "ProjectAlreadyExist", "requestID": "606B2B449A3FCDEBF04A39AB"}`,
			want:   `{"errorCode": "ProjectAlreadyExist"}`,
		},
		"HeaderName": {
			reason: "the header that carries an AWS request id",
			msg:    "throttled; x-amzn-RequestId: 7d1c9e3a-1b2c-4d5e-8f90-123456789abc",
			want:   "throttled",
		},
		"ResourceIDsStay": {
			reason: "identifiers that are the same on every attempt say what failed",
			msg:    "Cannot read AWS::EC2::VPC: vpc-0dcc11278872d11b7 (3f2b6c1e-9a0d-4c8e-b7a1-0e5d2c4f6a88) not found",
			want:   "Cannot read AWS::EC2::VPC: vpc-0dcc11278872d11b7 (3f2b6c1e-9a0d-4c8e-b7a1-0e5d2c4f6a88) not found",
		},
		"WordsStay": {
			reason: "a label followed by words, not an identifier, is a message",
			msg:    "the request token: expired; bad request to the API",
			want:   "the request token: expired; bad request to the API",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, withoutRequestIDs(tc.msg)); diff != "" {
				t.Errorf("%s\nwithoutRequestIDs (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestStableClient: two attempts that fail the same way with different
// request ids give the same error text, and the original error is still
// found by errors.Is; an error that names no request comes back as is.
func TestStableClient(t *testing.T) {
	cause := errors.New("cause")
	attempt := 0
	next := &managed.ExternalClientFns{UpdateFn: func(context.Context, resource.Managed) (managed.ExternalUpdate, error) {
		attempt++
		ids := []string{"0c8f1d2e-55aa-4b1c-9d3e-7f6a5b4c3d2e", "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"}
		return managed.ExternalUpdate{}, errors.Join(cause, errors.New("update request "+ids[attempt%2]+" failed: Model validation failed"))
	}, DeleteFn: func(context.Context, resource.Managed) (managed.ExternalDelete, error) {
		return managed.ExternalDelete{}, cause
	}}
	c := stableClient{next: next, log: logging.NewNopLogger()}
	m := NewManaged("logs.awscc.m.cairn-iac.io/v1alpha1", "LogGroup")
	_, first := c.Update(context.Background(), m)
	_, second := c.Update(context.Background(), m)
	if first == nil || second == nil {
		t.Fatal("Update succeeded; want the failures")
	}
	if first.Error() != second.Error() {
		t.Errorf("identical failures read differently:\n%s\n%s", first, second)
	}
	if !errors.Is(second, cause) {
		t.Errorf("errors.Is(%v, cause) = false; the original error is lost", second)
	}
	if _, err := c.Delete(context.Background(), m); err != cause {
		t.Errorf("Delete error = %#v, want the provider's error unchanged", err)
	}
}
