package testdynamo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"
)

const (
	testKey    = "AKIDTESTDYNAMO"
	testSecret = "testdynamo-secret"
)

// client is the real aws-sdk-go-v2 DynamoDB client pointed at s.
func client(s *Server, key, secret string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(s.URL),
		Credentials:  credentials.NewStaticCredentialsProvider(key, secret, ""),
		Retryer:      aws.NopRetryer{},
	})
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// TestLockProtocol walks the requests Terraform's and OpenTofu's lock
// clients send, through the real SDK: a table made for the test, a
// conditional put that wins and one that loses, a projected consistent
// read, and OpenTofu's conditional delete.
func TestLockProtocol(t *testing.T) {
	srv := Start(t, Options{AccessKey: testKey, SecretKey: testSecret})
	c := client(srv, testKey, testSecret)
	ctx := context.Background()
	tbl := aws.String("locks")

	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            tbl,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("LockID"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("LockID"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: tbl})
	if err != nil || desc.Table.TableStatus != types.TableStatusActive || *desc.Table.KeySchema[0].AttributeName != "LockID" {
		t.Fatalf("DescribeTable: %v %+v", err, desc)
	}

	put := func(info string) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{
			TableName:           tbl,
			Item:                map[string]types.AttributeValue{"LockID": s("b/k"), "Info": s(info)},
			ConditionExpression: aws.String("attribute_not_exists(LockID)"),
		})
		return err
	}
	if err := put(`{"ID":"one"}`); err != nil {
		t.Fatalf("first lock: %v", err)
	}
	var ccf *types.ConditionalCheckFailedException
	if err := put(`{"ID":"two"}`); !errors.As(err, &ccf) {
		t.Fatalf("second lock: got %v, want ConditionalCheckFailedException", err)
	}

	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:            tbl,
		Key:                  map[string]types.AttributeValue{"LockID": s("b/k")},
		ProjectionExpression: aws.String("LockID, Info"),
		ConsistentRead:       aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	if diff := cmp.Diff(map[string]string{"LockID": "b/k", "Info": `{"ID":"one"}`}, stringsOf(got.Item)); diff != "" {
		t.Errorf("GetItem (-want +got):\n%s", diff)
	}
	missing, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tbl, Key: map[string]types.AttributeValue{"LockID": s("b/k-md5")}})
	if err != nil || missing.Item != nil {
		t.Errorf("GetItem of no item: %v %v, want no item", err, missing.Item)
	}

	del := func(info string) error {
		_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                 tbl,
			Key:                       map[string]types.AttributeValue{"LockID": s("b/k")},
			ConditionExpression:       aws.String("#i = :info"),
			ExpressionAttributeNames:  map[string]string{"#i": "Info"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":info": s(info)},
		})
		return err
	}
	if err := del(`{"ID":"two"}`); !errors.As(err, &ccf) {
		t.Fatalf("delete of another's lock: got %v, want ConditionalCheckFailedException", err)
	}
	if err := del(`{"ID":"one"}`); err != nil {
		t.Fatalf("delete of own lock: %v", err)
	}
	if _, ok := srv.Item("locks", "b/k"); ok {
		t.Error("lock item still there after delete")
	}
	if diff := cmp.Diff(map[string]int{"CreateTable": 1, "DescribeTable": 1, "PutItem": 2, "GetItem": 2, "DeleteItem": 2}, srv.Calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func stringsOf(item map[string]types.AttributeValue) map[string]string {
	out := map[string]string{}
	for k, v := range item {
		if sv, ok := v.(*types.AttributeValueMemberS); ok {
			out[k] = sv.Value
		}
	}
	return out
}

// TestCredentials checks that the signature is verified: a request
// signed with another secret or key is refused as AWS refuses it.
func TestCredentials(t *testing.T) {
	srv := Start(t, Options{AccessKey: testKey, SecretKey: testSecret, Tables: []string{"locks"}})
	tests := map[string]struct {
		key, secret string
		want        string
	}{
		"right":        {testKey, testSecret, ""},
		"wrong secret": {testKey, "not-the-secret", "InvalidSignatureException"},
		"unknown key":  {"AKIDOTHER", testSecret, "UnrecognizedClientException"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := client(srv, tc.key, tc.secret).DescribeTable(context.Background(),
				&dynamodb.DescribeTableInput{TableName: aws.String("locks")})
			if got := errorCode(err); got != tc.want {
				t.Errorf("got %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func errorCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// TestRefusals sends requests outside the subset, signed as a client
// would, and checks each is DynamoDB's error for it, never a success.
func TestRefusals(t *testing.T) {
	srv := Start(t, Options{AccessKey: testKey, SecretKey: testSecret, Tables: []string{"locks"}})
	tests := map[string]struct {
		target, body string
		unsigned     bool
		want         string
	}{
		"unknown operation":  {"UpdateItem", `{"TableName":"locks"}`, false, "UnknownOperationException"},
		"no table":           {"GetItem", `{"TableName":"nope","Key":{"LockID":{"S":"a"}}}`, false, "ResourceNotFoundException"},
		"number attribute":   {"PutItem", `{"TableName":"locks","Item":{"LockID":{"S":"a"},"N":{"N":"1"}}}`, false, "ValidationException"},
		"other expression":   {"PutItem", `{"TableName":"locks","Item":{"LockID":{"S":"a"}},"ConditionExpression":"size(LockID) > :n"}`, false, "ValidationException"},
		"undefined value":    {"DeleteItem", `{"TableName":"locks","Key":{"LockID":{"S":"a"}},"ConditionExpression":"Info = :info"}`, false, "ValidationException"},
		"unused value":       {"DeleteItem", `{"TableName":"locks","Key":{"LockID":{"S":"a"}},"ExpressionAttributeValues":{":x":{"S":"1"}}}`, false, "ValidationException"},
		"wrong key":          {"GetItem", `{"TableName":"locks","Key":{"Other":{"S":"a"}}}`, false, "ValidationException"},
		"empty key":          {"GetItem", `{"TableName":"locks","Key":{"LockID":{"S":""}}}`, false, "ValidationException"},
		"unknown member":     {"GetItem", `{"TableName":"locks","Key":{"LockID":{"S":"a"}},"AttributesToGet":["Info"]}`, false, "ValidationException"},
		"not JSON":           {"GetItem", `{"TableName":`, false, "SerializationException"},
		"wrong member type":  {"GetItem", `{"TableName":7}`, false, "SerializationException"},
		"unsigned":           {"GetItem", `{"TableName":"locks","Key":{"LockID":{"S":"a"}}}`, true, "MissingAuthenticationTokenException"},
		"return old values":  {"PutItem", `{"TableName":"locks","Item":{"LockID":{"S":"a"}},"ReturnValues":"ALL_OLD"}`, false, "ValidationException"},
		"existing table":     {"CreateTable", `{"TableName":"locks","KeySchema":[{"AttributeName":"LockID","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"LockID","AttributeType":"S"}]}`, false, "ResourceInUseException"},
		"range key table":    {"CreateTable", `{"TableName":"t2","KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"RANGE"}]}`, false, "ValidationException"},
		"put without item":   {"PutItem", `{"TableName":"locks","Key":{"LockID":{"S":"a"}}}`, false, "ValidationException"},
		"item without key":   {"PutItem", `{"TableName":"locks","Item":{"Info":{"S":"a"}}}`, false, "ValidationException"},
		"undefined #name":    {"GetItem", `{"TableName":"locks","Key":{"LockID":{"S":"a"}},"ProjectionExpression":"#x"}`, false, "ValidationException"},
		"nested projection":  {"GetItem", `{"TableName":"locks","Key":{"LockID":{"S":"a"}},"ProjectionExpression":"Info.ID"}`, false, "ValidationException"},
		"attribute_type arg": {"PutItem", `{"TableName":"locks","Item":{"LockID":{"S":"a"}},"ConditionExpression":"attribute_type(LockID, :t)","ExpressionAttributeValues":{":t":{"S":"S"}}}`, false, "ValidationException"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			status, typ := send(t, srv, tc.target, tc.body, !tc.unsigned)
			if status != http.StatusBadRequest || typ != "com.amazonaws.dynamodb.v20120810#"+tc.want {
				t.Errorf("got %d %q, want 400 %q", status, typ, tc.want)
			}
		})
	}
	if _, ok := srv.Item("locks", "a"); ok {
		t.Error("a refused request wrote an item")
	}
}

// send posts body as operation target, signed with the test
// credentials when sign is set, and returns the status and __type.
func send(t *testing.T, srv *Server, target, body string, sign bool) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", targetPrefix+target)
	if sign {
		creds := aws.Credentials{AccessKeyID: testKey, SecretAccessKey: testSecret}
		if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, sha256Hex(body), "dynamodb", "us-east-1", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		Type string `json:"__type"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("response %q is not JSON: %v", b, err)
	}
	return resp.StatusCode, out.Type
}

func sha256Hex(body string) string {
	sum := sha256.Sum256([]byte(body))
	return hex.EncodeToString(sum[:])
}
