package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// FuzzModel: any desired state either fails to decode or goes through
// identifier, writeOnly stripping and the createOnly check without a
// panic, and stripping leaves no writeOnly property behind.
func FuzzModel(f *testing.F) {
	ti, err := parseTypeInfo(&cloudcontrol.ResourceType{Name: bucketType, Schema: realSchema(f, bucketType)})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(`{"BucketName":"b","AccessControl":"x"}`)
	f.Add(`{"LifecycleConfiguration":{"Rules":[{"Transition":1},null,[],{"Id":2}]}}`)
	f.Add(`{"BucketName":3,"ReplicationConfiguration":{"Rules":{"*":{"Prefix":1}}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		m, err := decodeModel(s)
		if err != nil {
			return
		}
		ti.identifier(m)
		pub := ti.public(m)
		ti.changedCreateOnly(m, pub)
		for _, p := range ti.writeOnly {
			if len(collect(pub, p)) > 0 {
				t.Errorf("writeOnly %v left in %s", p, encodeModel(pub))
			}
		}
	})
}

var signedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// FuzzAuthorization: any Authorization header is parsed or refused
// without a panic, and a request carrying it is never accepted.
func FuzzAuthorization(f *testing.F) {
	f.Add("AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/cloudcontrolapi/aws4_request, SignedHeaders=host;x-amz-date, Signature=00")
	f.Add("AWS4-HMAC-SHA256 Credential=, SignedHeaders=, Signature=")
	s := &Server{opts: Options{AccessKey: "AKID", SecretKey: "secret"}, now: func() time.Time { return signedAt }}
	f.Fuzz(func(t *testing.T, h string) {
		req, _ := http.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader("{}"))
		req.Header.Set("Authorization", h)
		req.Header.Set("X-Amz-Date", "20260101T000000Z")
		if s.checkSignature(req, []byte("{}")) == nil {
			t.Errorf("accepted %q", h)
		}
	})
}
