package ccendpoint

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/smithy-go"
)

// TestGarbageNextToken pages through a real endpoint with tokens it never
// issued: each is an InvalidRequestException, where a garbage token used
// to answer 200 with an empty page. Real tokens still page.
func TestGarbageNextToken(t *testing.T) {
	e := start(t, Options{})
	ctx := context.Background()
	cc := cloudcontrol.NewFromConfig(awsConfig(), func(o *cloudcontrol.Options) {
		o.BaseEndpoint = aws.String(e.URL)
		o.Retryer = aws.NopRetryer{}
	})
	for _, name := range []string{"a", "b", "c"} {
		out, err := cc.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"),
			DesiredState: aws.String(`{"LogGroupName":"` + name + `"}`)})
		if err != nil {
			t.Fatal(err)
		}
		w := cloudcontrol.NewResourceRequestSuccessWaiter(cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) { o.MinDelay = 1; o.MaxDelay = 1 })
		if _, err := w.WaitForOutput(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, 10e9); err != nil {
			t.Fatal(err)
		}
	}
	page, err := cc.ListResources(ctx, &cloudcontrol.ListResourcesInput{TypeName: aws.String("AWS::Logs::LogGroup"), MaxResults: aws.Int32(1)})
	if err != nil || page.NextToken == nil {
		t.Fatalf("first page: %v (NextToken %v)", err, page)
	}
	requests, err := cc.ListResourceRequests(ctx, &cloudcontrol.ListResourceRequestsInput{MaxResults: aws.Int32(1)})
	if err != nil || requests.NextToken == nil {
		t.Fatalf("first requests page: %v", err)
	}
	b64 := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	garbage := map[string]string{
		"not base64":            "!!garbage!!",
		"base64 of junk":        b64("junk"),
		"another type's token":  b64("AWS::S3::Bucket\x00a"),
		"a requests page token": aws.ToString(requests.NextToken),
	}
	for name, token := range garbage {
		t.Run("ListResources/"+name, func(t *testing.T) {
			_, err := cc.ListResources(ctx, &cloudcontrol.ListResourcesInput{TypeName: aws.String("AWS::Logs::LogGroup"), NextToken: aws.String(token)})
			wantInvalidRequest(t, err)
		})
	}
	for _, token := range []string{"!!", b64("7"), b64("requests:-1"), aws.ToString(page.NextToken)} {
		t.Run("ListResourceRequests/"+token, func(t *testing.T) {
			_, err := cc.ListResourceRequests(ctx, &cloudcontrol.ListResourceRequestsInput{NextToken: aws.String(token)})
			wantInvalidRequest(t, err)
		})
	}
	next, err := cc.ListResources(ctx, &cloudcontrol.ListResourcesInput{TypeName: aws.String("AWS::Logs::LogGroup"), NextToken: page.NextToken})
	if err != nil || len(next.ResourceDescriptions) != 2 {
		t.Errorf("second page with the real token: %v, %v", err, next)
	}
}

func wantInvalidRequest(t *testing.T, err error) {
	t.Helper()
	// ListResourceRequests does not model the exception, so the SDK
	// gives it by name only.
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "InvalidRequestException" || !strings.Contains(err.Error(), "Invalid NextToken") {
		t.Errorf("error %v, want InvalidRequestException: Invalid NextToken", err)
	}
}
