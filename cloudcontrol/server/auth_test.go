package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
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

// TestSigV4Forged signs requests by hand and changes them afterwards.
func TestSigV4Forged(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.opts.AccessKey, h.opts.SecretKey = testKey, testSecret })
	const body = `{"TypeName":"AWS::Logs::LogGroup"}`
	cases := map[string]struct {
		when   time.Time
		change func(r *http.Request)
		want   string
	}{
		"untouched":    {when: time.Now(), want: ""},
		"body changed": {when: time.Now(), change: setBody(`{"TypeName":"AWS::S3::Bucket"}`), want: "InvalidSignatureException"},
		"signed header changed": {when: time.Now(), change: func(r *http.Request) {
			r.Header.Set("X-Amz-Target", "CloudApiService.ListResourceRequests")
		}, want: "InvalidSignatureException"},
		"unsigned header added": {when: time.Now(), change: func(r *http.Request) { r.Header.Set("X-Other", "1") }, want: ""},
		"signed an hour ago":    {when: time.Now().Add(-time.Hour), want: "InvalidSignatureException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, h.http.URL+"/", strings.NewReader(body))
			req.Header.Set("X-Amz-Target", "CloudApiService.ListResources")
			req.Header.Set("Content-Type", "application/x-amz-json-1.0")
			sum := sha256.Sum256([]byte(body))
			err := v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: testKey, SecretAccessKey: testSecret},
				req, hex.EncodeToString(sum[:]), "cloudcontrolapi", "us-east-1", tc.when)
			if err != nil {
				t.Fatal(err)
			}
			if tc.change != nil {
				tc.change(req)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := resp.Header.Get("X-Amzn-Errortype"); got != tc.want {
				t.Errorf("error type %q, want %q", got, tc.want)
			}
		})
	}
}

func setBody(s string) func(r *http.Request) {
	return func(r *http.Request) {
		r.Body = io.NopCloser(strings.NewReader(s))
		r.ContentLength = int64(len(s))
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

// TestAdminAPISigned: with credentials configured, the fault admin API
// refuses unsigned requests and takes signed ones.
func TestAdminAPISigned(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.opts.AccessKey, h.opts.SecretKey = testKey, testSecret })
	body := `{"throttle":1}`
	resp, err := http.Post(h.http.URL+"/_cairn/faults", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("unsigned admin request: status %d, want 403", resp.StatusCode)
	}
	if got := h.current().faults.list(); len(got) != 0 {
		t.Fatalf("an unsigned request installed %v", got)
	}
	req, _ := http.NewRequest(http.MethodPost, h.http.URL+"/_cairn/faults", strings.NewReader(body))
	sum := sha256.Sum256([]byte(body))
	creds := aws.Credentials{AccessKeyID: testKey, SecretAccessKey: testSecret}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), "cloudcontrolapi", "us-east-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(h.current().faults.list()) != 1 {
		t.Fatalf("signed admin request: status %d, faults %v", resp.StatusCode, h.current().faults.list())
	}
}
