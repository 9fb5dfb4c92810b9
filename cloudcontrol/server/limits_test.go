package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// TestOversizedRequests sends requests past Cloud Control's limits
// through the real SDK client: a 40 MB body is a size error (HTTP 413)
// naming the limit, where it was "unexpected end of JSON input"; a
// DesiredState past the model's 256K characters is AWS's
// ValidationException; one at the limit is taken.
func TestOversizedRequests(t *testing.T) {
	h := newHarness(t, nil)
	model := func(size int) string {
		const head, tail = `{"LogGroupName":"`, `"}`
		return head + strings.Repeat("g", size-len(head)-len(tail)) + tail
	}
	cases := map[string]struct {
		desired    string
		wantCode   string
		wantStatus int
		wantMsg    string
	}{
		"40 MB body": {
			desired: model(40 << 20), wantCode: "RequestEntityTooLargeException", wantStatus: http.StatusRequestEntityTooLarge,
			wantMsg: "larger than the endpoint's limit of 16777216 bytes",
		},
		"past the model's limit": {
			desired: model(maxProperties + 1), wantCode: "ValidationException", wantStatus: http.StatusBadRequest,
			wantMsg: "1 validation error detected: Value at 'desiredState' failed to satisfy constraint: Member must have length less than or equal to 262144",
		},
		"at the limit": {desired: model(maxProperties)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := h.client.CreateResource(context.Background(), &ccapi.CreateResourceInput{
				TypeName: aws.String(logGroupType), DesiredState: aws.String(tc.desired)})
			if tc.wantCode == "" {
				if err != nil {
					t.Fatalf("a DesiredState at the limit was refused: %v", err)
				}
				return
			}
			var re *smithyhttp.ResponseError
			if errorCode(err) != tc.wantCode || !errors.As(err, &re) || re.HTTPStatusCode() != tc.wantStatus || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %v\nwant %s (HTTP %d) saying %q", err, tc.wantCode, tc.wantStatus, tc.wantMsg)
			}
		})
	}
}
