package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"
)

// TestSigV4 runs SDK clients with good and bad credentials against a
// server that verifies signatures, for Cloud Control and STS.
func TestSigV4(t *testing.T) {
	cases := map[string]struct {
		key, secret string
		verify      bool
		wantCC      string // error code, "" for success
		wantSTS     string
	}{
		"right credentials":         {key: testKey, secret: testSecret, verify: true},
		"wrong secret":              {key: testKey, secret: "other", verify: true, wantCC: "InvalidSignatureException", wantSTS: "SignatureDoesNotMatch"},
		"unknown access key":        {key: "AKIDOTHER", secret: testSecret, verify: true, wantCC: "UnrecognizedClientException", wantSTS: "InvalidClientTokenId"},
		"no verification, any keys": {key: "AKIDOTHER", secret: "other"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, func(h *harness) {
				if tc.verify {
					h.opts.AccessKey, h.opts.SecretKey = testKey, testSecret
				}
			})
			client := h.newClient(tc.key, tc.secret)
			_, err := client.ListResources(context.Background(), &ccapi.ListResourcesInput{TypeName: aws.String(logGroupType)})
			stsClient := h.newSTSClient(tc.key, tc.secret)
			_, stsErr := stsClient.GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
			if diff := cmp.Diff([]string{tc.wantCC, tc.wantSTS}, []string{errorCode(err), errorCode(stsErr)}); diff != "" {
				t.Errorf("error codes [cloudcontrol sts] (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSigV4TamperedBody: a body changed after signing is refused.
func TestSigV4TamperedBody(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.opts.AccessKey, h.opts.SecretKey = testKey, testSecret })
	req, _ := http.NewRequest(http.MethodPost, h.http.URL+"/", strings.NewReader(`{"TypeName":"AWS::Logs::LogGroup"}`))
	req.Header.Set("X-Amz-Target", "CloudApiService.ListResources")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Date", "20260101T000000Z")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+testKey+
		"/20260101/us-east-1/cloudcontrolapi/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=00")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("X-Amzn-Errortype"); got != "InvalidSignatureException" {
		t.Errorf("forged signature: error type %q", got)
	}
}

// TestGetCallerIdentity answers the endpoint's account through the real
// STS client.
func TestGetCallerIdentity(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.opts.Account = "111122223333" })
	out, err := h.newSTSClient(testKey, testSecret).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{aws.ToString(out.Account), aws.ToString(out.Arn)}
	if diff := cmp.Diff([]string{"111122223333", "arn:aws:iam::111122223333:user/cairn"}, got); diff != "" {
		t.Errorf("identity (-want +got):\n%s", diff)
	}
}

func (h *harness) newSTSClient(key, secret string) *sts.Client {
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider(key, secret, "")}
	return sts.NewFromConfig(cfg, func(o *sts.Options) {
		o.BaseEndpoint = aws.String(h.http.URL)
		o.Retryer = aws.NopRetryer{}
	})
}

func errorCode(err error) string {
	if err == nil {
		return ""
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return err.Error()
}
