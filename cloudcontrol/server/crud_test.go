package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/google/go-cmp/cmp"
)

// TestLifecycleThroughSDK drives create, read, update, list and delete
// of one bucket with the real AWS SDK client.
func TestLifecycleThroughSDK(t *testing.T) {
	h := newHarness(t, nil)
	ctx := context.Background()

	first := h.create(bucketType, `{"BucketName":"b1","AccessControl":"Private","Tags":[{"Key":"k","Value":"v"}]}`)
	if first.OperationStatus != cctypes.OperationStatusPending {
		t.Errorf("first status = %s, want PENDING", first.OperationStatus)
	}
	done := h.mustSucceed(first)
	if diff := cmp.Diff("b1", aws.ToString(done.Identifier)); diff != "" {
		t.Errorf("identifier (-want +got):\n%s", diff)
	}
	wantModel := map[string]any{"BucketName": "b1", "Arn": "arn:aws:test:::b1",
		"Tags": []any{map[string]any{"Key": "k", "Value": "v"}}}
	if diff := cmp.Diff(wantModel, decode(t, done.ResourceModel)); diff != "" {
		t.Errorf("create ResourceModel, writeOnly AccessControl left out (-want +got):\n%s", diff)
	}

	got, err := h.client.GetResource(ctx, &ccapi.GetResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("b1")})
	if err != nil {
		t.Fatalf("GetResource: %v", err)
	}
	if diff := cmp.Diff(wantModel, decode(t, got.ResourceDescription.Properties)); diff != "" {
		t.Errorf("GetResource (-want +got):\n%s", diff)
	}

	up, err := h.client.UpdateResource(ctx, &ccapi.UpdateResourceInput{TypeName: aws.String(bucketType),
		Identifier: aws.String("b1"), PatchDocument: aws.String(`[{"op":"replace","path":"/Tags/0/Value","value":"w"}]`)})
	if err != nil {
		t.Fatalf("UpdateResource: %v", err)
	}
	updated := h.mustSucceed(up.ProgressEvent)
	wantModel["Tags"] = []any{map[string]any{"Key": "k", "Value": "w"}}
	if diff := cmp.Diff(wantModel, decode(t, updated.ResourceModel)); diff != "" {
		t.Errorf("update ResourceModel (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("Private", storedProperty(t, h, "b1", "AccessControl")); diff != "" {
		t.Errorf("writeOnly value kept by the handler across the update (-want +got):\n%s", diff)
	}

	list, err := h.client.ListResources(ctx, &ccapi.ListResourcesInput{TypeName: aws.String(bucketType)})
	if err != nil {
		t.Fatalf("ListResources: %v", err)
	}
	if len(list.ResourceDescriptions) != 1 || aws.ToString(list.ResourceDescriptions[0].Identifier) != "b1" {
		t.Errorf("ListResources = %+v, want b1 only", list.ResourceDescriptions)
	}

	del, err := h.client.DeleteResource(ctx, &ccapi.DeleteResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("b1")})
	if err != nil {
		t.Fatalf("DeleteResource: %v", err)
	}
	h.mustSucceed(del.ProgressEvent)
	_, err = h.client.GetResource(ctx, &ccapi.GetResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("b1")})
	var nf *cctypes.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Errorf("GetResource after delete: %v, want ResourceNotFoundException", err)
	}
}

func decode(t *testing.T, s *string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(aws.ToString(s)), &m); err != nil {
		t.Fatalf("model %q: %v", aws.ToString(s), err)
	}
	return m
}

func storedProperty(t *testing.T, h *harness, id, prop string) any {
	t.Helper()
	b, err := h.db.Get(bucketType, id)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m[prop]
}

// TestLogLines: one line per API call with operation, type, token and
// status, and never a request body (desired states may hold secrets).
func TestLogLines(t *testing.T) {
	h := newHarness(t, nil)
	ev := h.mustSucceed(h.create(bucketType, `{"BucketName":"b1","AccessControl":"hunter2-secret"}`))
	logs := h.logs.String()
	if strings.Contains(logs, "hunter2") {
		t.Errorf("a request body reached the log:\n%s", logs)
	}
	token := aws.ToString(ev.RequestToken)
	for _, want := range []string{
		"op=CreateResource type=AWS::S3::Bucket token=" + token + " status=PENDING",
		"op=GetResourceRequestStatus type=AWS::S3::Bucket token=" + token + " status=SUCCESS",
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}
