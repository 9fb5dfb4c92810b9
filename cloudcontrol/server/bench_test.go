package server

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
)

// BenchmarkGetResource measures GetResource through the SDK client over
// loopback: signing, HTTP, the handler's Read from bbolt, stripping.
func BenchmarkGetResource(b *testing.B) {
	h := newHarness(b, nil)
	h.mustSucceed(h.create(bucketType, `{"BucketName":"bench","AccessControl":"Private","Tags":[{"Key":"k","Value":"v"}]}`))
	in := &ccapi.GetResourceInput{TypeName: aws.String(bucketType), Identifier: aws.String("bench")}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.client.GetResource(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreatePoll measures a create and the polls to its SUCCESS:
// the request record is fsynced at acceptance and at each step.
func BenchmarkCreatePoll(b *testing.B) {
	h := newHarness(b, nil)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		h.mustSucceed(h.create(logGroupType, fmt.Sprintf(`{"LogGroupName":"g%d"}`, i)))
	}
}
