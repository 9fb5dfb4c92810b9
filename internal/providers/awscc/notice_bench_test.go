package awscc

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// BenchmarkNotice creates one log group per operation through a real
// endpoint whose creates take 300 ms, and waits for it to finish two ways:
// with the provider's poller, and with the AWS SDK's own request waiter at
// its defaults — the waiter HashiCorp's awscc provider uses (first poll at
// once, then no sooner than 5 s). The difference is how much sooner Cairn
// notices a finished operation.
func BenchmarkNotice(b *testing.B) {
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: b.TempDir(), Latency: 300 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("bench", "bench", "")}
	client := cloudcontrol.NewFromConfig(cfg, func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) })
	ctx := context.Background()
	n := 0
	create := func(b *testing.B) *cloudcontrol.CreateResourceOutput {
		n++
		out, err := client.CreateResource(ctx, &cloudcontrol.CreateResourceInput{
			TypeName: aws.String("AWS::Logs::LogGroup"), DesiredState: aws.String(fmt.Sprintf(`{"LogGroupName":"notice-%d"}`, n))})
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	b.Run("cairn-poller", func(b *testing.B) {
		rt := &runtime{api: client, poll: defaultBackoff, stop: ctx}
		for b.Loop() {
			if _, err := rt.await(ctx, create(b).ProgressEvent); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sdk-waiter-as-awscc", func(b *testing.B) {
		w := cloudcontrol.NewResourceRequestSuccessWaiter(client)
		for b.Loop() {
			out := create(b)
			if err := w.Wait(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, time.Minute); err != nil {
				b.Fatal(err)
			}
		}
	})
}
