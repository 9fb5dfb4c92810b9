package testdynamo

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/cloudcontrol/sigv4"
)

// FuzzRequest sends arbitrary operations and bodies (unsigned checking:
// the server has no credentials) and checks every answer is a DynamoDB
// answer, never a panic: an error is 400 with a __type, a success 200.
func FuzzRequest(f *testing.F) {
	for _, seed := range []struct{ op, body string }{
		{"PutItem", `{"TableName":"locks","Item":{"LockID":{"S":"b/k"},"Info":{"S":"{}"}},"ConditionExpression":"attribute_not_exists(LockID)"}`},
		{"GetItem", `{"TableName":"locks","Key":{"LockID":{"S":"b/k"}},"ProjectionExpression":"LockID, Info","ConsistentRead":true}`},
		{"DeleteItem", `{"TableName":"locks","Key":{"LockID":{"S":"b/k"}},"ConditionExpression":"Info = :info","ExpressionAttributeValues":{":info":{"S":"{}"}}}`},
		{"DeleteItem", `{"TableName":"locks","Key":{"LockID":{"S":"b/k"}},"ConditionExpression":"#i = :v","ExpressionAttributeNames":{"#i":"Info"},"ExpressionAttributeValues":{":v":{"S":"{}"}}}`},
		{"CreateTable", `{"TableName":"t","KeySchema":[{"AttributeName":"k","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"k","AttributeType":"S"}]}`},
		{"DescribeTable", `{"TableName":"locks"}`},
		{"Scan", `{}`},
	} {
		f.Add(seed.op, seed.body)
	}
	srv := New(Options{Tables: []string{"locks"}})
	f.Fuzz(func(t *testing.T, op, body string) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", targetPrefix+op)
		req.Header.Set("X-Amz-Date", "20261127T000000Z")
		req.Header.Set("Authorization", sigv4.Algorithm+" Credential=AKID/20261127/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
		case http.StatusBadRequest:
			if !strings.Contains(rec.Body.String(), `"__type":"com.amazonaws.dynamodb.v20120810#`) {
				t.Fatalf("error without __type: %s", rec.Body)
			}
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}
