package ccendpoint

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"
)

// noRetry makes every SDK call a single attempt, so the endpoint's
// answers are seen as they are.
func noRetry(o *cloudcontrol.Options) { o.RetryMaxAttempts = 1 }

// TestTraffic checks the call counts, the ThrottlingException beyond
// -rate, answered as Cloud Control answers it, and the delay of -rtt.
func TestTraffic(t *testing.T) {
	tests := map[string]struct {
		reason        string
		opts          Options
		calls         int
		wantThrottled int
		// wantAtLeast is a lower bound on how long the calls take.
		wantAtLeast time.Duration
	}{
		"counted": {
			reason: "Every Cloud Control call is counted by operation.",
			calls:  5,
		},
		"rate": {
			reason: "With a rate of one call every 2 s, a burst of 4 calls gets 1 answer and 3 ThrottlingExceptions.",
			opts:   Options{Rate: 0.5}, calls: 4, wantThrottled: 3,
		},
		"rtt": {
			reason: "Every answer waits the round trip, reads included.",
			opts:   Options{RTT: 50 * time.Millisecond}, calls: 3, wantAtLeast: 150 * time.Millisecond,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := start(t, tc.opts)
			client := cloudcontrol.NewFromConfig(awsConfig(), func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) }, noRetry)
			began := time.Now()
			throttled := 0
			for range tc.calls {
				_, err := client.GetResource(context.Background(), &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String("absent")})
				var nf *cctypes.ResourceNotFoundException
				var th *cctypes.ThrottlingException
				var api smithy.APIError
				switch {
				case errors.As(err, &th) && errors.As(err, &api) && api.ErrorCode() == "ThrottlingException":
					throttled++
				case !errors.As(err, &nf):
					t.Fatalf("GetResource: %v", err)
				}
			}
			if took := time.Since(began); took < tc.wantAtLeast {
				t.Errorf("%s\n%d calls took %s, want at least %s", tc.reason, tc.calls, took, tc.wantAtLeast)
			}
			calls, gotThrottled := e.Calls()
			if throttled != tc.wantThrottled || gotThrottled != tc.wantThrottled {
				t.Errorf("%s\nclient saw %d throttled, endpoint counted %d; want %d", tc.reason, throttled, gotThrottled, tc.wantThrottled)
			}
			if diff := cmp.Diff(Calls{"GetResource": tc.calls}, calls); diff != "" {
				t.Errorf("%s\ncalls (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCallsAdminAPI reads and resets the counts over HTTP, as scripts
// running "cairn cloudcontrol serve" do.
func TestCallsAdminAPI(t *testing.T) {
	e := start(t, Options{})
	client := cloudcontrol.NewFromConfig(awsConfig(), func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) }, noRetry)
	_, _ = client.ListResources(context.Background(), &cloudcontrol.ListResourcesInput{TypeName: aws.String("AWS::Logs::LogGroup")})
	get := func() callsReport {
		t.Helper()
		resp, err := http.Get(e.URL + callsPath)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r callsReport
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if diff := cmp.Diff(callsReport{Calls: Calls{"ListResources": 1}}, get()); diff != "" {
		t.Errorf("GET %s (-want +got):\n%s", callsPath, diff)
	}
	req, _ := http.NewRequest(http.MethodDelete, e.URL+callsPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if diff := cmp.Diff(callsReport{Calls: Calls{}}, get()); diff != "" {
		t.Errorf("after DELETE (-want +got):\n%s", diff)
	}
}
