package emulator

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

const (
	testRegion  = "us-east-2"
	testAccount = "123456789012"
)

var testNow = time.Date(2026, 11, 24, 10, 30, 0, 0, time.UTC)

// schemaFile maps a type name to its schema under testdata/.
func schemaFile(typeName string) string {
	return filepath.Join("testdata", strings.ReplaceAll(typeName, "::", "_")+".json")
}

// newTestHandler returns a handler for typeName over a fresh store.
func newTestHandler(t testing.TB, typeName string, opts ...Option) (cloudcontrol.Handler, *memStore) {
	t.Helper()
	raw, err := os.ReadFile(schemaFile(typeName))
	if err != nil {
		t.Fatal(err)
	}
	store := newMemStore()
	opts = append([]Option{WithClock(func() time.Time { return testNow })}, opts...)
	h, err := New(typeName, raw, store, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h, store
}

// model decodes a JSON object as the endpoint does (numbers as json.Number).
func model(t testing.TB, text string) map[string]any {
	t.Helper()
	m, err := decodeObject([]byte(text))
	if err != nil {
		t.Fatalf("decoding %s: %v", text, err)
	}
	return m
}

// request builds a request for typeName.
func request(typeName, token string, desired map[string]any) *cloudcontrol.Request {
	return &cloudcontrol.Request{
		TypeName: typeName, ClientToken: token, Region: testRegion, Account: testAccount,
		Desired: desired, Step: 1,
	}
}

// mustSucceed fails the test unless ev is SUCCESS.
func mustSucceed(t testing.TB, what string, ev *cloudcontrol.ProgressEvent) {
	t.Helper()
	if ev.Status != cloudcontrol.StatusSuccess {
		t.Fatalf("%s: %s %s: %s", what, ev.Status, ev.ErrorCode, ev.Message)
	}
}

func TestLifecycle(t *testing.T) {
	tests := map[string]struct {
		reason   string
		typeName string
		desired  string
		// wantID matches the identifier; wantValues the model's
		// string values by property.
		wantID     string
		wantValues map[string]string
		// patch is merged into the created model for the update.
		patch string
	}{
		"S3 bucket named": {
			reason:   "a given bucket name is the identifier; host names and the ARN are built from it",
			typeName: "AWS::S3::Bucket",
			desired:  `{"BucketName": "my-bucket", "VersioningConfiguration": {"Status": "Enabled"}}`,
			wantID:   `^my-bucket$`,
			wantValues: map[string]string{
				"Arn":                 `^arn:aws:s3:::my-bucket$`,
				"DomainName":          `^my-bucket\.s3\.amazonaws\.com$`,
				"RegionalDomainName":  `^my-bucket\.s3\.us-east-2\.amazonaws\.com$`,
				"DualStackDomainName": `^my-bucket\.s3\.dualstack\.us-east-2\.amazonaws\.com$`,
				"WebsiteURL":          `^http://my-bucket\.s3-website-us-east-2\.amazonaws\.com$`,
			},
			patch: `{"VersioningConfiguration": {"Status": "Suspended"}}`,
		},
		"S3 bucket unnamed": {
			reason:     "an absent bucket name is generated in lower case with a random suffix",
			typeName:   "AWS::S3::Bucket",
			desired:    `{}`,
			wantID:     `^bucket-[a-z0-9]{12}$`,
			wantValues: map[string]string{"Arn": `^arn:aws:s3:::bucket-[a-z0-9]{12}$`},
			patch:      `{"Tags": [{"Key": "k", "Value": "v"}]}`,
		},
		"log group": {
			reason:   "the log group ARN has the logs shape with :* at the end",
			typeName: "AWS::Logs::LogGroup",
			desired:  `{"LogGroupName": "/app/web"}`,
			wantID:   `^/app/web$`,
			wantValues: map[string]string{
				"Arn":           `^arn:aws:logs:us-east-2:123456789012:log-group:/app/web:\*$`,
				"LogGroupClass": `^STANDARD$`,
			},
			patch: `{"RetentionInDays": 7}`,
		},
		"IAM role": {
			reason:   "role ids start AROA; the ARN is global and carries the path",
			typeName: "AWS::IAM::Role",
			desired:  `{"RoleName": "deployer", "Path": "/ci/", "AssumeRolePolicyDocument": {"Version": "2012-10-17", "Statement": []}}`,
			wantID:   `^deployer$`,
			wantValues: map[string]string{
				"RoleId": `^AROA[A-Z0-9]{17}$`,
				"Arn":    `^arn:aws:iam::123456789012:role/ci/deployer$`,
			},
			patch: `{"Description": "deploys"}`,
		},
		"IAM role unnamed": {
			reason:   "an absent role name is generated; the default path is filled",
			typeName: "AWS::IAM::Role",
			desired:  `{"AssumeRolePolicyDocument": "{}"}`,
			wantID:   `^Role-[A-Z0-9]{12}$`,
			wantValues: map[string]string{
				"Path": `^/$`,
				"Arn":  `^arn:aws:iam::123456789012:role/Role-[A-Z0-9]{12}$`,
			},
			patch: `{"MaxSessionDuration": 7200}`,
		},
		"VPC": {
			reason:   "EC2 ids are a prefix and 17 hex digits",
			typeName: "AWS::EC2::VPC",
			desired:  `{"CidrBlock": "10.0.0.0/16"}`,
			wantID:   `^vpc-[0-9a-f]{17}$`,
			wantValues: map[string]string{
				"VpcId":                `^vpc-[0-9a-f]{17}$`,
				"DefaultNetworkAcl":    `^acl-[0-9a-f]{17}$`,
				"DefaultSecurityGroup": `^sg-[0-9a-f]{17}$`,
			},
			patch: `{"EnableDnsHostnames": true}`,
		},
		"subnet": {
			reason:   "a subnet without a zone gets the region's first",
			typeName: "AWS::EC2::Subnet",
			desired:  `{"VpcId": "vpc-0123456789abcdef0", "CidrBlock": "10.0.1.0/24"}`,
			wantID:   `^subnet-[0-9a-f]{17}$`,
			wantValues: map[string]string{
				"SubnetId":                `^subnet-[0-9a-f]{17}$`,
				"NetworkAclAssociationId": `^aclassoc-[0-9a-f]{17}$`,
				"AvailabilityZone":        `^us-east-2a$`,
			},
			patch: `{"MapPublicIpOnLaunch": true}`,
		},
		"Lambda function": {
			reason:   "function ARNs use a colon before the name",
			typeName: "AWS::Lambda::Function",
			desired: `{"FunctionName": "fn", "Role": "arn:aws:iam::123456789012:role/r", "Runtime": "python3.12",
				"Handler": "index.handler", "Code": {"ZipFile": "def handler(e, c): pass"}}`,
			wantID:     `^fn$`,
			wantValues: map[string]string{"Arn": `^arn:aws:lambda:us-east-2:123456789012:function:fn$`},
			patch:      `{"MemorySize": 256}`,
		},
		"SNS topic": {
			reason:   "the identifier is an ARN built from a generated topic name",
			typeName: "AWS::SNS::Topic",
			desired:  `{}`,
			wantID:   `^arn:aws:sns:us-east-2:123456789012:Topic-[A-Z0-9]{12}$`,
			wantValues: map[string]string{
				"TopicName": `^Topic-[A-Z0-9]{12}$`,
			},
			patch: `{"DisplayName": "alerts"}`,
		},
		"SQS queue": {
			reason:   "the identifier is the queue URL",
			typeName: "AWS::SQS::Queue",
			desired:  `{"QueueName": "jobs"}`,
			wantID:   `^https://sqs\.us-east-2\.amazonaws\.com/123456789012/jobs$`,
			wantValues: map[string]string{
				"Arn": `^arn:aws:sqs:us-east-2:123456789012:jobs$`,
			},
			patch: `{"VisibilityTimeout": 60}`,
		},
		"DynamoDB table": {
			reason:   "table ARNs; no stream ARN without a stream",
			typeName: "AWS::DynamoDB::Table",
			desired: `{"TableName": "t", "BillingMode": "PAY_PER_REQUEST",
				"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
				"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}`,
			wantID:     `^t$`,
			wantValues: map[string]string{"Arn": `^arn:aws:dynamodb:us-east-2:123456789012:table/t$`, "StreamArn": `^$`},
			patch:      `{"DeletionProtectionEnabled": true}`,
		},
		"KMS key": {
			reason:   "key ids are UUIDs and the ARN embeds them",
			typeName: "AWS::KMS::Key",
			desired:  `{}`,
			wantID:   `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
			wantValues: map[string]string{
				"Arn": `^arn:aws:kms:us-east-2:123456789012:key/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
			},
			patch: `{"Description": "data key"}`,
		},
		"security group": {
			reason:   "Id and GroupId are one sg- id",
			typeName: "AWS::EC2::SecurityGroup",
			desired:  `{"GroupDescription": "web"}`,
			wantID:   `^sg-[0-9a-f]{17}$`,
			wantValues: map[string]string{
				"GroupId": `^sg-[0-9a-f]{17}$`,
			},
			patch: `{"Tags": [{"Key": "k", "Value": "v"}]}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			h, _ := newTestHandler(t, tc.typeName)
			created := h.Create(ctx, request(tc.typeName, "token-"+name, model(t, tc.desired)))
			mustSucceed(t, "create", created)
			s, _ := parseSchema(tc.typeName, mustRead(t, schemaFile(tc.typeName)))
			id, err := s.identifierOf(created.Model)
			if err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(tc.wantID).MatchString(id) {
				t.Errorf("identifier %q does not match %s (%s)", id, tc.wantID, tc.reason)
			}
			for prop, pattern := range tc.wantValues {
				got, _ := created.Model[prop].(string)
				if !regexp.MustCompile(pattern).MatchString(got) {
					t.Errorf("%s = %q, want match of %s (%s)", prop, got, pattern, tc.reason)
				}
			}

			read := h.Read(ctx, &cloudcontrol.Request{TypeName: tc.typeName, Identifier: id})
			mustSucceed(t, "read", read)
			if diff := cmp.Diff(created.Model, read.Model); diff != "" {
				t.Errorf("read differs from create (-want +got):\n%s", diff)
			}

			desired := copyModel(read.Model)
			for k, v := range model(t, tc.patch) {
				desired[k] = v
			}
			upd := &cloudcontrol.Request{TypeName: tc.typeName, Identifier: id, Desired: desired, Previous: read.Model}
			updated := h.Update(ctx, upd)
			mustSucceed(t, "update", updated)
			if diff := cmp.Diff(desired, updated.Model); diff != "" {
				t.Errorf("update answer differs from desired (-want +got):\n%s", diff)
			}
			reread := h.Read(ctx, &cloudcontrol.Request{TypeName: tc.typeName, Identifier: id})
			mustSucceed(t, "read after update", reread)
			if diff := cmp.Diff(desired, reread.Model); diff != "" {
				t.Errorf("read after update (-want +got):\n%s", diff)
			}

			list := h.List(ctx, &cloudcontrol.Request{TypeName: tc.typeName})
			mustSucceed(t, "list", list)
			if len(list.Models) != 1 || cmp.Diff(desired, list.Models[0]) != "" {
				t.Errorf("list = %v, want the one model", list.Models)
			}

			mustSucceed(t, "delete", h.Delete(ctx, &cloudcontrol.Request{TypeName: tc.typeName, Identifier: id}))
			for what, ev := range map[string]*cloudcontrol.ProgressEvent{
				"read":   h.Read(ctx, &cloudcontrol.Request{TypeName: tc.typeName, Identifier: id}),
				"delete": h.Delete(ctx, &cloudcontrol.Request{TypeName: tc.typeName, Identifier: id}),
				"update": h.Update(ctx, upd),
			} {
				if ev.Status != cloudcontrol.StatusFailed || ev.ErrorCode != cloudcontrol.CodeNotFound {
					t.Errorf("%s after delete = %s %s, want FAILED NotFound", what, ev.Status, ev.ErrorCode)
				}
			}
		})
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
