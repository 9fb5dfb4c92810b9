package testendpoint

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
)

// CreateLogGroup makes the log group name on the Cloud Control endpoint at
// url (region eu-west-1, unsigned) and waits until it exists: the object
// tests of identities and listings read back.
func CreateLogGroup(tb testing.TB, url, name string) {
	tb.Helper()
	client := cloudcontrol.New(cloudcontrol.Options{Region: "eu-west-1", BaseEndpoint: aws.String(url), Credentials: aws.AnonymousCredentials{}})
	ctx := context.Background()
	out, err := client.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), DesiredState: aws.String(`{"LogGroupName":"` + name + `"}`)})
	if err != nil {
		tb.Fatal(err)
	}
	w := cloudcontrol.NewResourceRequestSuccessWaiter(client, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
		o.MinDelay, o.MaxDelay = 10*time.Millisecond, 100*time.Millisecond
	})
	if err := w.Wait(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, 30*time.Second); err != nil {
		tb.Fatal(err)
	}
}
