package sigv4

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

var signedAt = time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)

// signed returns a request for body signed by the SDK with key/secret at
// when, for service dynamodb.
func signed(t *testing.T, key, secret, body string, when time.Time) *http.Request {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:8000/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	sum := sha256.Sum256([]byte(body))
	creds := aws.Credentials{AccessKeyID: key, SecretAccessKey: secret}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", when); err != nil {
		t.Fatal(err)
	}
	return req
}

// TestVerify signs requests with the SDK, changes some afterwards, and
// checks each verdict.
func TestVerify(t *testing.T) {
	const body = `{"TableName":"locks"}`
	v := Verifier{AccessKey: "AKID", SecretKey: "secret", Now: func() time.Time { return signedAt }}
	cases := map[string]struct {
		req    func(t *testing.T) *http.Request
		body   string
		noTime bool
		want   Failure
	}{
		"right":         {req: func(t *testing.T) *http.Request { return signed(t, "AKID", "secret", body, signedAt) }},
		"wrong secret":  {req: func(t *testing.T) *http.Request { return signed(t, "AKID", "other", body, signedAt) }, want: BadSignature},
		"unknown key":   {req: func(t *testing.T) *http.Request { return signed(t, "AKID2", "secret", body, signedAt) }, want: UnknownKey},
		"body changed":  {req: func(t *testing.T) *http.Request { return signed(t, "AKID", "secret", body, signedAt) }, body: `{"TableName":"other"}`, want: BadSignature},
		"an hour early": {req: func(t *testing.T) *http.Request { return signed(t, "AKID", "secret", body, signedAt.Add(-time.Hour)) }, want: Expired},
		"an hour early, clock unchecked": {req: func(t *testing.T) *http.Request {
			return signed(t, "AKID", "secret", body, signedAt.Add(-time.Hour))
		}, noTime: true},
		"signed header changed": {req: func(t *testing.T) *http.Request {
			r := signed(t, "AKID", "secret", body, signedAt)
			r.Header.Set("X-Amz-Target", "DynamoDB_20120810.DeleteItem")
			return r
		}, want: BadSignature},
		"unsigned header added": {req: func(t *testing.T) *http.Request {
			r := signed(t, "AKID", "secret", body, signedAt)
			r.Header.Set("X-Other", "1")
			return r
		}},
		"no authorization": {req: func(t *testing.T) *http.Request {
			r := signed(t, "AKID", "secret", body, signedAt)
			r.Header.Del("Authorization")
			return r
		}, want: MissingAuth},
		"no date": {req: func(t *testing.T) *http.Request {
			r := signed(t, "AKID", "secret", body, signedAt)
			r.Header.Del("X-Amz-Date")
			return r
		}, want: MissingAuth},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := body
			if tc.body != "" {
				b = tc.body
			}
			vv := v
			if tc.noTime {
				vv.Now = nil
			}
			if got := vv.Verify(tc.req(t), []byte(b)); got != tc.want {
				t.Errorf("Verify = %d, want %d", got, tc.want)
			}
		})
	}
}

// FuzzAuthorization: any Authorization header is parsed or refused
// without a panic, and a request carrying it is never accepted.
func FuzzAuthorization(f *testing.F) {
	f.Add("AWS4-HMAC-SHA256 Credential=AKID/20261127/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00")
	f.Add("AWS4-HMAC-SHA256 Credential=, SignedHeaders=, Signature=")
	v := Verifier{AccessKey: "AKID", SecretKey: "secret"}
	f.Fuzz(func(t *testing.T, h string) {
		ParseAuthorization(h)
		req, _ := http.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader("{}"))
		req.Header.Set("Authorization", h)
		req.Header.Set("X-Amz-Date", "20261127T040000Z")
		if v.Verify(req, []byte("{}")) == 0 {
			t.Errorf("accepted %q", h)
		}
	})
}
