package awscc

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
)

// isolatedAWSEnv clears the AWS settings of the environment and the
// shared files, so only what a test sets counts.
func isolatedAWSEnv(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_CLOUDCONTROL", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// clientFor builds the provider's Cloud Control client for s.
func clientFor(t *testing.T, s settings) *cloudcontrol.Client {
	t.Helper()
	s.Region, s.AccessKey, s.SecretKey, s.SkipMetadataAPICheck = "us-east-1", "AK", "SK", true
	s.MaxRetries = defaultMaxRetries
	cfg, err := awsConfig(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return cloudControlClient(cfg, s)
}

// deadEndpoint returns the URL of a loopback port that accepts
// connections and closes them unanswered, and a count of connections.
func deadEndpoint(t *testing.T) (string, *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return "http://" + ln.Addr().String(), &n
}

// refusedURL returns a loopback URL whose port refuses connections.
func refusedURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// TestUnreachableEndpointFailsFast: a call to a configured endpoint that
// never answers is tried endpointConnectTries times, not max_retries+1
// (26), and fails with one error naming the endpoint, the setting it came
// from and, on loopback, how to start one.
func TestUnreachableEndpointFailsFast(t *testing.T) {
	cases := map[string]struct {
		reason   string
		env      map[string]string
		block    bool
		refused  bool
		want     []string
		wantSent int32
	}{
		"provider block, connection closed": {
			reason: "each try is one connection", block: true,
			want:     []string{"endpoints.cloudcontrolapi in the provider block", "cairn cloudcontrol serve -addr 127.0.0.1:"},
			wantSent: endpointConnectTries,
		},
		"AWS_ENDPOINT_URL, connection refused": {
			env: map[string]string{"AWS_ENDPOINT_URL": "URL"}, refused: true,
			want: []string{"(set by AWS_ENDPOINT_URL)", "connection refused", "cairn cloudcontrol serve"},
		},
		"service variable wins": {
			env:  map[string]string{"AWS_ENDPOINT_URL": "http://192.0.2.1:1", "AWS_ENDPOINT_URL_CLOUDCONTROL": "URL"},
			want: []string{"(set by AWS_ENDPOINT_URL_CLOUDCONTROL)"}, wantSent: endpointConnectTries,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			isolatedAWSEnv(t)
			url, sent := deadEndpoint(t)
			if tc.refused {
				url = refusedURL(t)
			}
			var s settings
			if tc.block {
				s.CloudControlEndpoint = url
			}
			for k, v := range tc.env {
				t.Setenv(k, strings.ReplaceAll(v, "URL", url))
			}
			client := clientFor(t, s)
			_, err := client.GetResource(context.Background(), &cloudcontrol.GetResourceInput{
				TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String("g")})
			var unreachable *unreachableEndpointError
			if !errors.As(err, &unreachable) {
				t.Fatalf("%s: error %v, want an unreachableEndpointError", tc.reason, err)
			}
			if testing.Verbose() {
				t.Log(err)
			}
			for _, want := range append(tc.want, "cannot reach the Cloud Control endpoint "+url) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
			if tc.wantSent > 0 && sent.Load() != tc.wantSent {
				t.Errorf("%s: %d connections, want %d", tc.reason, sent.Load(), tc.wantSent)
			}
		})
	}
}

// TestEndpointNotOnLoopback: a configured endpoint elsewhere gets the
// same quick refusal without the advice to start a local endpoint.
func TestEndpointNotOnLoopback(t *testing.T) {
	err := &unreachableEndpointError{
		Endpoint: configuredEndpoint{URL: "https://cloudcontrol.example.internal:8443", Source: "AWS_ENDPOINT_URL"},
		Err:      errors.New("connection refused"),
	}
	if got := err.Error(); strings.Contains(got, "cairn cloudcontrol serve") || !strings.Contains(got, "Check that the endpoint runs") {
		t.Errorf("message for a remote endpoint: %s", got)
	}
}

// TestAWSEndpointKeepsSDKRetries: without a configured endpoint the
// client keeps the SDK's retryer and its 26 attempts.
func TestAWSEndpointKeepsSDKRetries(t *testing.T) {
	isolatedAWSEnv(t)
	client := clientFor(t, settings{})
	o := client.Options()
	if _, wrapped := o.Retryer.(connectRetryer); wrapped || o.BaseEndpoint != nil {
		t.Errorf("AWS endpoint: retryer %T, base endpoint %v; want the SDK's, none", o.Retryer, o.BaseEndpoint)
	}
	if got := o.Retryer.MaxAttempts(); got != defaultMaxRetries+1 {
		t.Errorf("MaxAttempts = %d, want %d", got, defaultMaxRetries+1)
	}
}

// TestConnectRetryer: only connection errors are cut short; throttling
// and other errors keep the SDK's delays for as many attempts as it
// allows.
func TestConnectRetryer(t *testing.T) {
	conn := &retry.MaxAttemptsError{Err: connErr{}}
	throttled := &cctypes.ThrottlingException{Message: aws.String("Rate exceeded")}
	r := connectRetryer{RetryerV2: fixedRetryer{}}
	cases := map[string]struct {
		err     error
		attempt int
		want    time.Duration
		stop    bool
	}{
		"first connection retry":  {conn, 1, endpointRetryDelay, false},
		"doubling":                {conn, 3, 4 * endpointRetryDelay, false},
		"last connection try":     {conn, endpointConnectTries, 0, true},
		"throttling keeps going":  {throttled, 20, time.Hour, false},
		"cancelled is not a dial": {context.Canceled, 20, time.Hour, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := r.RetryDelay(tc.attempt, tc.err)
			if (err != nil) != tc.stop || d != tc.want {
				t.Errorf("RetryDelay(%d) = %v, %v; want %v, stop %v", tc.attempt, d, err, tc.want, tc.stop)
			}
		})
	}
}

// connErr is what the SDK's transport returns when a request is never
// answered.
type connErr struct{}

func (connErr) Error() string         { return "request send failed" }
func (connErr) ConnectionError() bool { return true }

// fixedRetryer answers every delay with an hour, so a test sees whether
// connectRetryer passed the call on.
type fixedRetryer struct{ aws.RetryerV2 }

func (fixedRetryer) RetryDelay(int, error) (time.Duration, error) { return time.Hour, nil }
