package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// benchTypes are the ten types BenchmarkQueryTypes lists: their awscc
// names and the desired state of their i-th object.
var benchTypes = []struct {
	cfn, tf string
	state   func(i int) string
}{
	{"AWS::Logs::LogGroup", "awscc_logs_log_group", func(i int) string { return fmt.Sprintf(`{"LogGroupName":"g-%03d"}`, i) }},
	{"AWS::SNS::Topic", "awscc_sns_topic", func(i int) string { return fmt.Sprintf(`{"TopicName":"t-%03d"}`, i) }},
	{"AWS::SQS::Queue", "awscc_sqs_queue", func(i int) string { return fmt.Sprintf(`{"QueueName":"q-%03d"}`, i) }},
	{"AWS::SSM::Parameter", "awscc_ssm_parameter", func(i int) string { return fmt.Sprintf(`{"Name":"p-%03d","Type":"String","Value":"v"}`, i) }},
	{"AWS::S3::Bucket", "awscc_s3_bucket", func(i int) string { return fmt.Sprintf(`{"BucketName":"bucket-%03d"}`, i) }},
	{"AWS::ECR::Repository", "awscc_ecr_repository", func(i int) string { return fmt.Sprintf(`{"RepositoryName":"r-%03d"}`, i) }},
	{"AWS::Events::EventBus", "awscc_events_event_bus", func(i int) string { return fmt.Sprintf(`{"Name":"b-%03d"}`, i) }},
	{"AWS::SecretsManager::Secret", "awscc_secretsmanager_secret", func(i int) string { return fmt.Sprintf(`{"Name":"s-%03d"}`, i) }},
	{"AWS::EC2::VPC", "awscc_ec2_vpc", func(i int) string { return fmt.Sprintf(`{"CidrBlock":"10.%d.0.0/16"}`, i%250) }},
	{"AWS::IAM::Role", "awscc_iam_role", func(i int) string {
		return fmt.Sprintf(`{"RoleName":"role-%03d","AssumeRolePolicyDocument":{"Version":"2012-10-17","Statement":[]}}`, i)
	}},
}

// BenchmarkQueryTypes is "cairn query" of ten list blocks, one per type
// of benchTypes, each type holding 100 objects, through Cairn's Cloud
// Control endpoint in process: one list at a time (-parallelism=1) and
// ten at once (the default, 10), with each call answered at once and
// after a 20 ms round trip. A list of 100 objects is one ListResources
// call, so ten lists are about ten calls whichever way they run; what
// parallelism saves is the round trips waited one after another. Run
// with -benchtime=1x; the figures are in docs/design/performance.md.
func BenchmarkQueryTypes(b *testing.B) {
	const perType = 100
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: b.TempDir(), Region: "us-east-1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	var query strings.Builder
	for _, t := range benchTypes {
		seedObjects(b, e.URL, t.cfn, perType, t.state)
		fmt.Fprintf(&query, "list %q \"all\" {\n  provider = awscc\n  limit    = 1000\n}\n\n", t.tf)
	}
	dir := b.TempDir()
	files := map[string]string{"main.tf": "provider \"awscc\" {\n  region = \"us-east-1\"\n}\n", "main.tfquery.hcl": query.String()}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := map[string]string{
		"AWS_ENDPOINT_URL": e.URL, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_REGION": "us-east-1",
		"AWS_EC2_METADATA_DISABLED": "true", "HOME": b.TempDir(), "XDG_CACHE_HOME": b.TempDir(), "TF_IN_AUTOMATION": "1",
	}
	for k, v := range env {
		b.Setenv(k, v)
	}
	getenv := func(k string) string { return env[k] }
	for _, rtt := range []time.Duration{0, 20 * time.Millisecond} {
		for _, par := range []int{1, 10} {
			b.Run(fmt.Sprintf("rtt=%s/parallelism=%d", rtt, par), func(b *testing.B) {
				e.SetRTT(rtt)
				var calls ccendpoint.Calls
				for b.Loop() {
					var out, errs bytes.Buffer
					e.ResetCalls()
					start := time.Now()
					args := []string{"-chdir=" + dir, "query", "-no-color", fmt.Sprintf("-parallelism=%d", par)}
					if code := Run(args, Streams{Stdout: &out, Stderr: &errs, Getenv: getenv}); code != 0 {
						b.Fatalf("cairn query: exit %d\n%s", code, errs.String())
					}
					b.ReportMetric(time.Since(start).Seconds(), "s/query")
					if got := strings.Count("\n"+out.String(), "\nlist."); got != perType*len(benchTypes) {
						b.Fatalf("%d results, want %d", got, perType*len(benchTypes))
					}
					calls, _ = e.Calls()
				}
				b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
				b.ReportMetric(float64(calls["GetResource"]), "GetResource/op")
			})
		}
	}
}

// BenchmarkQueryAll is "cairn query -all" through Cairn's endpoint in
// process, holding 100 log groups: every list resource type of awscc
// (1,406), one ListResources call each, one list at a time and ten at
// once, answered at once and after a 20 ms round trip.
func BenchmarkQueryAll(b *testing.B) {
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: b.TempDir(), Region: "us-east-1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	seedLogGroups(b, e.URL, 100)
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("provider \"awscc\" {\n  region = \"us-east-1\"\n}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{
		"AWS_ENDPOINT_URL": e.URL, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_REGION": "us-east-1",
		"AWS_EC2_METADATA_DISABLED": "true", "HOME": b.TempDir(), "XDG_CACHE_HOME": b.TempDir(), "TF_IN_AUTOMATION": "1",
	}
	for k, v := range env {
		b.Setenv(k, v)
	}
	getenv := func(k string) string { return env[k] }
	for _, rtt := range []time.Duration{0, 20 * time.Millisecond} {
		for _, par := range []int{1, 10} {
			b.Run(fmt.Sprintf("rtt=%s/parallelism=%d", rtt, par), func(b *testing.B) {
				e.SetRTT(rtt)
				var calls ccendpoint.Calls
				for b.Loop() {
					var out, errs bytes.Buffer
					e.ResetCalls()
					start := time.Now()
					args := []string{"-chdir=" + dir, "query", "-all", "-no-color", fmt.Sprintf("-parallelism=%d", par)}
					if code := Run(args, Streams{Stdout: &out, Stderr: &errs, Getenv: getenv}); code != 0 {
						b.Fatalf("cairn query -all: exit %d\n%s", code, errs.String())
					}
					b.ReportMetric(time.Since(start).Seconds(), "s/query")
					if got := strings.Count("\n"+out.String(), "\nlist."); got != 100 {
						b.Fatalf("%d results, want 100", got)
					}
					calls, _ = e.Calls()
				}
				b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
			})
		}
	}
}
