package ccendpoint

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/smithy-go"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
)

func start(t *testing.T, opts Options) *Endpoint {
	t.Helper()
	if opts.DataDir == "" {
		opts.DataDir = t.TempDir()
	}
	opts.Addr = "127.0.0.1:0"
	e, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

func awsConfig() aws.Config {
	return aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKID", "SECRET", "")}
}

// TestFetchFromEndpoint fetches schemas through the CloudFormation
// registry calls of a real SDK client: what the endpoint serves is the
// built-in document, byte for byte once indented alike.
func TestFetchFromEndpoint(t *testing.T) {
	e := start(t, Options{})
	client := cloudformation.NewFromConfig(awsConfig(), func(o *cloudformation.Options) { o.BaseEndpoint = aws.String(e.URL) })
	dir := t.TempDir()
	res, err := cfnregistry.Fetch(context.Background(), client, dir, cfnregistry.FetchOptions{Types: []string{"AWS::Logs::", "AWS::S3::Bucket"}})
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := cfnregistry.BuiltinTypeNames()
	var want []string
	for _, n := range builtin {
		if matches(n, "AWS::Logs::") || n == "AWS::S3::Bucket" {
			want = append(want, n)
		}
	}
	// Types without a create handler are not provisionable and never
	// listed; every other one is fetched.
	if len(res.Written) == 0 || len(res.Written) > len(want) {
		t.Fatalf("fetched %v, want a subset of %v", res.Written, want)
	}
	docs, _ := cfnregistry.Builtin(func(n string) bool { return n == "AWS::S3::Bucket" })
	got, err := os.ReadFile(filepath.Join(dir, "AWS_S3_Bucket.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal(docs[0].Data, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Error("fetched AWS::S3::Bucket differs from the built-in schema")
	}
}

func TestDescribeUnknownType(t *testing.T) {
	e := start(t, Options{})
	client := cloudformation.NewFromConfig(awsConfig(), func(o *cloudformation.Options) { o.BaseEndpoint = aws.String(e.URL) })
	_, err := client.DescribeType(context.Background(), &cloudformation.DescribeTypeInput{TypeName: aws.String("AWS::No::Such")})
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "TypeNotFoundException" {
		t.Fatalf("got %v, want TypeNotFoundException", err)
	}
}

// TestPrivateTypeAndRestart creates a private type's resource from a
// schema directory, restarts the endpoint on the same data directory and
// reads it back: acknowledged resources survive.
func TestPrivateTypeAndRestart(t *testing.T) {
	schemas := t.TempDir()
	doc := `{"typeName":"Initech::TPS::Report","description":"d","additionalProperties":false,
		"properties":{"ReportId":{"type":"string"},"Title":{"type":"string"}},"required":["Title"],
		"readOnlyProperties":["/properties/ReportId"],"primaryIdentifier":["/properties/ReportId"],
		"handlers":{"create":{"permissions":[]},"read":{"permissions":[]},"delete":{"permissions":[]},"list":{"permissions":[]}}}`
	if err := os.WriteFile(filepath.Join(schemas, "tps.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	opts := Options{DataDir: data, SchemaDirs: []string{schemas}, Addr: "127.0.0.1:0"}
	e, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cc := cloudcontrol.NewFromConfig(awsConfig(), func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) })
	out, err := cc.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String("Initech::TPS::Report"), DesiredState: aws.String(`{"Title":"q3"}`)})
	if err != nil {
		t.Fatal(err)
	}
	w := cloudcontrol.NewResourceRequestSuccessWaiter(cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) { o.MinDelay = 1; o.MaxDelay = 1 })
	st, err := w.WaitForOutput(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, 10e9)
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(st.ProgressEvent.Identifier)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = start(t, Options{DataDir: data, SchemaDirs: []string{schemas}})
	cc = cloudcontrol.NewFromConfig(awsConfig(), func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) })
	got, err := cc.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: aws.String("Initech::TPS::Report"), Identifier: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	var props map[string]any
	if err := json.Unmarshal([]byte(aws.ToString(got.ResourceDescription.Properties)), &props); err != nil || props["Title"] != "q3" || props["ReportId"] != id {
		t.Errorf("after restart: %s (%v)", aws.ToString(got.ResourceDescription.Properties), err)
	}
}
