package tests3

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// TestServer puts, lists, reads and deletes through the helpers, and
// checks the server honours the conditional write use_lockfile needs.
func TestServer(t *testing.T) {
	s := Start(t)
	s.Put(t, "env:/a/x.tfstate", []byte("one"))
	s.Put(t, "x.tfstate", []byte("two"))
	if got := s.List(t, "env:/"); !slices.Equal(got, []string{"env:/a/x.tfstate"}) {
		t.Fatalf("List(env:/) = %q", got)
	}
	if b, ok := s.Get(t, "x.tfstate"); !ok || string(b) != "two" {
		t.Fatalf("Get = %q, %v", b, ok)
	}
	s.Delete(t, "x.tfstate")
	if _, ok := s.Get(t, "x.tfstate"); ok {
		t.Fatal("object still there after Delete")
	}

	put := func() error {
		_, err := s.Client().PutObject(context.Background(), &s3.PutObjectInput{
			Bucket: aws.String(s.Bucket), Key: aws.String("x.tflock"),
			Body: bytes.NewReader([]byte("{}")), IfNoneMatch: aws.String("*"),
		})
		return err
	}
	if err := put(); err != nil {
		t.Fatalf("first conditional put: %v", err)
	}
	err := put()
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "PreconditionFailed" {
		t.Fatalf("second conditional put: got %v, want PreconditionFailed", err)
	}
}

// TestHaltResume stops the server and starts it again with its objects.
func TestHaltResume(t *testing.T) {
	s := Start(t)
	s.Put(t, "k", []byte("v"))
	if err := s.Halt(); err != nil {
		t.Fatal(err)
	}
	_, err := s.Client().ListBuckets(context.Background(), &s3.ListBucketsInput{})
	if err == nil || !strings.Contains(err.Error(), "connect") {
		t.Fatalf("halted server answered: %v", err)
	}
	if err := s.Resume(); err != nil {
		t.Fatal(err)
	}
	if b, ok := s.Get(t, "k"); !ok || string(b) != "v" {
		t.Fatalf("after Resume: %q, %v", b, ok)
	}
}
