package emulator

import (
	"context"
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// BenchmarkCreate creates S3 buckets with generated names, one token each.
func BenchmarkCreate(b *testing.B) {
	h, _ := newTestHandler(b, "AWS::S3::Bucket")
	desired := model(b, `{"VersioningConfiguration": {"Status": "Enabled"}, "Tags": [{"Key": "team", "Value": "infra"}]}`)
	ctx := context.Background()
	mustSucceed(b, "warm-up", h.Create(ctx, request("AWS::S3::Bucket", "warm-up", desired)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ev := h.Create(ctx, request("AWS::S3::Bucket", fmt.Sprint("token-", i), desired))
		if ev.Status != cloudcontrol.StatusSuccess {
			b.Fatal(ev.Message)
		}
	}
}

// BenchmarkValidate validates an S3 bucket model against its compiled
// schema.
func BenchmarkValidate(b *testing.B) {
	s, err := parseSchema("AWS::S3::Bucket", mustRead(b, schemaFile("AWS::S3::Bucket")))
	if err != nil {
		b.Fatal(err)
	}
	v := &validator{schema: s}
	m := model(b, `{"BucketName": "my-bucket", "VersioningConfiguration": {"Status": "Enabled"},
		"BucketEncryption": {"ServerSideEncryptionConfiguration": [{"ServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms"}}]},
		"Tags": [{"Key": "team", "Value": "infra"}]}`)
	if err := v.validate(m); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := v.validate(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile compiles the S3 bucket schema, the per-handler cost
// paid once.
func BenchmarkCompile(b *testing.B) {
	s, err := parseSchema("AWS::S3::Bucket", mustRead(b, schemaFile("AWS::S3::Bucket")))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compileSchema(s); err != nil {
			b.Fatal(err)
		}
	}
}
