package tests3

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// CreateBucket creates another bucket on the server.
func (s *Server) CreateBucket(t testing.TB, name string) {
	t.Helper()
	c, cancel := ctx()
	defer cancel()
	if _, err := s.client.CreateBucket(c, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("creating bucket %s: %v", name, err)
	}
}

// Get returns the bytes of object key in s.Bucket, and false when there
// is no such object.
func (s *Server) Get(t testing.TB, key string) ([]byte, bool) {
	t.Helper()
	c, cancel := ctx()
	defer cancel()
	out, err := s.client.GetObject(c, &s3.GetObjectInput{Bucket: aws.String(s.Bucket), Key: aws.String(key)})
	var missing *types.NoSuchKey
	if errors.As(err, &missing) {
		return nil, false
	}
	if err != nil {
		t.Fatalf("getting %s: %v", key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", key, err)
	}
	return b, true
}

// Put writes object key in s.Bucket, replacing any.
func (s *Server) Put(t testing.TB, key string, body []byte) {
	t.Helper()
	c, cancel := ctx()
	defer cancel()
	_, err := s.client.PutObject(c, &s3.PutObjectInput{Bucket: aws.String(s.Bucket), Key: aws.String(key), Body: bytes.NewReader(body)})
	if err != nil {
		t.Fatalf("putting %s: %v", key, err)
	}
}

// Delete removes object key from s.Bucket; a missing object is no error.
func (s *Server) Delete(t testing.TB, key string) {
	t.Helper()
	c, cancel := ctx()
	defer cancel()
	if _, err := s.client.DeleteObject(c, &s3.DeleteObjectInput{Bucket: aws.String(s.Bucket), Key: aws.String(key)}); err != nil {
		t.Fatalf("deleting %s: %v", key, err)
	}
}

// List returns the keys in s.Bucket that start with prefix, sorted.
func (s *Server) List(t testing.TB, prefix string) []string {
	t.Helper()
	c, cancel := ctx()
	defer cancel()
	var keys []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.Bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(c)
		if err != nil {
			t.Fatalf("listing %q: %v", prefix, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	sort.Strings(keys)
	return keys
}
