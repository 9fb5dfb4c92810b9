package awscc

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// BenchmarkNew loads and translates every schema of the corpus and builds
// the provider: what a run pays before it can ask for the schema.
func BenchmarkNew(b *testing.B) {
	dir := corpusDir(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetProviderSchema asks a fresh server for the schema of every
// type through the adapter (framework schema building and validation,
// protocol conversion, configschema conversion), as the first instance of
// a run does; later instances share the result.
func BenchmarkGetProviderSchema(b *testing.B) {
	p, err := New(corpusDir(b))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		resp := tfproto6.New(p.Server()).GetProviderSchema(ctx)
		if resp.Diagnostics.HasErrors() {
			b.Fatal(resp.Diagnostics)
		}
	}
}

// bucketModel is an S3 bucket's model as Cloud Control returns it: nested
// objects, key-value tags, lifecycle rules.
const bucketModel = `{
  "BucketName": "logs-1234", "Arn": "arn:aws:s3:::logs-1234", "DomainName": "logs-1234.s3.amazonaws.com",
  "VersioningConfiguration": {"Status": "Enabled"},
  "BucketEncryption": {"ServerSideEncryptionConfiguration": [{"ServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms", "KMSMasterKeyID": "alias/s3"}, "BucketKeyEnabled": true}]},
  "LifecycleConfiguration": {"Rules": [
    {"Id": "expire", "Status": "Enabled", "ExpirationInDays": 30, "Prefix": "tmp/"},
    {"Id": "archive", "Status": "Enabled", "Transitions": [{"StorageClass": "GLACIER", "TransitionInDays": 90}]}
  ]},
  "PublicAccessBlockConfiguration": {"BlockPublicAcls": true, "BlockPublicPolicy": true, "IgnorePublicAcls": true, "RestrictPublicBuckets": true},
  "Tags": [{"Key": "env", "Value": "prod"}, {"Key": "team", "Value": "infra"}, {"Key": "cost", "Value": "42"}]
}`

// bucketType loads AWS::S3::Bucket from the corpus.
func bucketType(b *testing.B) (*cfnschema.ResourceType, tftypes.Object, map[string]any) {
	c, ds := cfnschema.LoadFiles([]string{filepath.Join(corpusDir(b), "AWS_S3_Bucket.json")})
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	rt := c.Types()[0]
	ty := rt.ResourceSchema().Type().TerraformType(context.Background()).(tftypes.Object)
	model, err := decodeJSON([]byte(bucketModel))
	if err != nil {
		b.Fatal(err)
	}
	return rt, ty, model.(map[string]any)
}

// BenchmarkStateFromJSON converts an S3 bucket model into state against
// prior state, as every refresh does.
func BenchmarkStateFromJSON(b *testing.B) {
	rt, ty, model := bucketType(b)
	prior, err := stateFromJSON(rt.Attributes, ty, model, tftypes.NewValue(ty, nil))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := stateFromJSON(rt.Attributes, ty, model, prior); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDesiredState converts an S3 bucket's state into its desired
// state document, as every create and update does.
func BenchmarkDesiredState(b *testing.B) {
	rt, ty, model := bucketType(b)
	v, err := stateFromJSON(rt.Attributes, ty, model, tftypes.NewValue(ty, nil))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := desiredState(rt.Attributes, v, toOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
