package awscc

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// TestAdaptiveRetryUnderThrottling sends a burst of reads at an endpoint
// that accepts 20 calls a second, with the provider's retryer and with the
// standard one it replaced (same attempts, no client-side limit). The
// adaptive retryer slows down after the first throttles, so it draws far
// fewer ThrottlingExceptions, and every read succeeds.
func TestAdaptiveRetryUnderThrottling(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bursts of calls against a throttling endpoint for a few seconds")
	}
	const reads, workers = 120, 30
	standard := func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = defaultMaxRetries + 1
			o.RateLimiter = ratelimit.None
		})
	}
	adaptive := func() aws.Retryer { return newRetryer(defaultMaxRetries) }
	run := func(name string, retryer func() aws.Retryer) (throttled, failed int) {
		e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Rate: 20})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		client := cloudcontrol.New(cloudcontrol.Options{Region: "us-east-1", BaseEndpoint: aws.String(e.URL),
			Credentials: aws.AnonymousCredentials{}, Retryer: retryer()})
		ctx := context.Background()
		var mu sync.Mutex
		var wg sync.WaitGroup
		jobs := make(chan int)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					_, err := client.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String(fmt.Sprint("g", i))})
					if err != nil && !isNotFound(err) {
						mu.Lock()
						failed++
						mu.Unlock()
					}
				}
			}()
		}
		for i := range reads {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		calls, throttled := e.Calls()
		t.Logf("%s: %d calls (%s), %d throttled, %d reads failed", name, calls.Total(), calls, throttled, failed)
		return throttled, failed
	}
	stdThrottled, _ := run("standard", standard)
	adaptiveThrottled, adaptiveFailed := run("adaptive", adaptive)
	if adaptiveFailed > 0 {
		t.Errorf("%d reads failed with the adaptive retryer", adaptiveFailed)
	}
	if adaptiveThrottled*2 > stdThrottled {
		t.Errorf("adaptive retry drew %d ThrottlingExceptions, the standard one %d: want fewer than half", adaptiveThrottled, stdThrottled)
	}
}

// TestClientRetryerIsAdaptive checks that the client the provider builds
// retries with the adaptive mode, max_retries honoured.
func TestClientRetryerIsAdaptive(t *testing.T) {
	var lo config.LoadOptions
	for _, fn := range loadOptions(settings{MaxRetries: 7}) {
		if err := fn(&lo); err != nil {
			t.Fatal(err)
		}
	}
	r := lo.Retryer()
	if _, ok := r.(*retry.AdaptiveMode); !ok {
		t.Errorf("retryer %T, want *retry.AdaptiveMode", r)
	}
	if n := r.MaxAttempts(); n != 8 {
		t.Errorf("max attempts %d, want 8", n)
	}
}
