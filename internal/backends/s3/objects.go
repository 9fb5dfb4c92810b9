package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/cairn-iac/cairn/internal/backends"
)

// store is the bucket as this package uses it: whole objects read,
// written (with the configured server-side encryption, ACL and checksum),
// listed and deleted, each call retried while its failure is transient,
// for up to the configured RetryFor.
type store struct {
	c        *s3.Client
	bucket   string
	cfg      *Config
	retryFor time.Duration
	// sse is the SSE-C key, decoded; nil when none. Secret.
	sse []byte
}

// errPrecondition is a conditional write refused: the object exists.
var errPrecondition = errors.New("the object exists")

// get returns the object's bytes; found is false when there is none.
func (st *store) get(ctx context.Context, key string) (data []byte, found bool, err error) {
	err = st.retry(ctx, func(ctx context.Context) error {
		in := &s3.GetObjectInput{Bucket: &st.bucket, Key: aws.String(key)}
		if st.sse != nil {
			in.SSECustomerAlgorithm, in.SSECustomerKey, in.SSECustomerKeyMD5 = st.sseHeaders()
		}
		out, err := st.c.GetObject(ctx, in)
		if isNotFound(err) {
			data, found = nil, false
			return nil
		}
		if err != nil {
			return err
		}
		defer out.Body.Close()
		data, err = io.ReadAll(out.Body)
		found = err == nil
		return err
	})
	if err != nil {
		return nil, false, st.describe("reading", key, err)
	}
	return data, found, nil
}

// put writes the object; with ifNoneMatch only when none exists
// (errPrecondition otherwise), S3's conditional write.
func (st *store) put(ctx context.Context, key string, data []byte, ifNoneMatch bool) error {
	err := st.retry(ctx, func(ctx context.Context) error {
		in := &s3.PutObjectInput{
			Bucket:        &st.bucket,
			Key:           aws.String(key),
			Body:          bytes.NewReader(data),
			ContentLength: aws.Int64(int64(len(data))),
			ContentType:   aws.String("application/json"),
		}
		if ifNoneMatch {
			in.IfNoneMatch = aws.String("*")
		}
		st.encryptPut(in)
		if st.cfg.ACL != "" {
			in.ACL = types.ObjectCannedACL(st.cfg.ACL)
		}
		if !st.cfg.SkipS3Checksum {
			// Computed here, as Terraform does, rather than by the SDK's
			// streaming trailer, which many S3-compatible servers refuse.
			sum := sha256.Sum256(data)
			in.ChecksumAlgorithm = types.ChecksumAlgorithmSha256
			in.ChecksumSHA256 = aws.String(base64.StdEncoding.EncodeToString(sum[:]))
		}
		_, err := st.c.PutObject(ctx, in)
		if ifNoneMatch && apiCode(err) == "PreconditionFailed" {
			return errPrecondition
		}
		return err
	})
	if errors.Is(err, errPrecondition) {
		return err
	}
	if err != nil {
		return st.describe("writing", key, err)
	}
	return nil
}

// encryptPut sets the server-side encryption Terraform sets: with
// encrypt, aws:kms with kms_key_id, else SSE-C with sse_customer_key,
// else AES256.
func (st *store) encryptPut(in *s3.PutObjectInput) {
	switch {
	case st.sse != nil:
		in.SSECustomerAlgorithm, in.SSECustomerKey, in.SSECustomerKeyMD5 = st.sseHeaders()
	case !st.cfg.Encrypt:
	case st.cfg.KMSKeyID != "":
		in.ServerSideEncryption = types.ServerSideEncryptionAwsKms
		in.SSEKMSKeyId = aws.String(st.cfg.KMSKeyID)
	default:
		in.ServerSideEncryption = types.ServerSideEncryptionAes256
	}
}

// sseHeaders are the SSE-C request fields.
func (st *store) sseHeaders() (alg, key, keyMD5 *string) {
	sum := md5.Sum(st.sse)
	return aws.String("AES256"), aws.String(base64.StdEncoding.EncodeToString(st.sse)), aws.String(base64.StdEncoding.EncodeToString(sum[:]))
}

// del deletes the object; a missing one is no error.
func (st *store) del(ctx context.Context, key string) error {
	err := st.retry(ctx, func(ctx context.Context) error {
		_, err := st.c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &st.bucket, Key: aws.String(key)})
		if isNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return st.describe("deleting", key, err)
	}
	return nil
}

// delMany deletes the objects keys, a thousand per request (S3's
// DeleteObjects), in no particular order; missing ones are no error.
func (st *store) delMany(ctx context.Context, keys []string) error {
	for len(keys) > 0 {
		batch := keys[:min(len(keys), 1000)]
		keys = keys[len(batch):]
		ids := make([]types.ObjectIdentifier, len(batch))
		for i, k := range batch {
			ids[i] = types.ObjectIdentifier{Key: aws.String(k)}
		}
		err := st.retry(ctx, func(ctx context.Context) error {
			out, err := st.c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &st.bucket, Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)}})
			if err != nil {
				return err
			}
			for _, e := range out.Errors {
				if aws.ToString(e.Code) != "NoSuchKey" {
					return fmt.Errorf("%s: %s", aws.ToString(e.Key), aws.ToString(e.Message))
				}
			}
			return nil
		})
		if err != nil {
			return st.describe("deleting", batch[0], err)
		}
	}
	return nil
}

// list returns the keys under prefix, in S3's order (lexical).
func (st *store) list(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	err := st.retry(ctx, func(ctx context.Context) error {
		keys = keys[:0]
		p := s3.NewListObjectsV2Paginator(st.c, &s3.ListObjectsV2Input{Bucket: &st.bucket, Prefix: aws.String(prefix)})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				return err
			}
			for _, o := range page.Contents {
				keys = append(keys, aws.ToString(o.Key))
			}
		}
		return nil
	})
	if err != nil {
		return nil, st.describe("listing", prefix, err)
	}
	return keys, nil
}

// copy copies object from to to, with the configured encryption.
func (st *store) copy(ctx context.Context, from, to string) error {
	data, found, err := st.get(ctx, from)
	if err != nil || !found {
		return err
	}
	return st.put(ctx, to, data, false)
}

// retry runs fn until it succeeds, fails for good, or transient failures
// have lasted RetryFor (the SDK's own retries run inside each call).
func (st *store) retry(ctx context.Context, fn func(context.Context) error) error {
	deadline := time.Now().Add(st.retryFor)
	delay := 100 * time.Millisecond
	for {
		err := fn(ctx)
		if err == nil || !transient(err) || ctx.Err() != nil {
			return err
		}
		if time.Now().Add(delay).After(deadline) {
			return fmt.Errorf("%w: %w (gave up retrying after %s)", backends.ErrUnavailable, err, st.retryFor)
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return ctx.Err()
		}
		delay = min(delay*2, 2*time.Second)
	}
}

// transient reports whether err may pass by itself: a connection that
// failed, a throttle, a server error.
func transient(err error) bool {
	var max *retry.MaxAttemptsError
	if errors.As(err, &max) {
		err = max.Err
	}
	return retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err) == aws.TrueTernary
}

func isNotFound(err error) bool {
	var nk *types.NoSuchKey
	var nf *types.NotFound
	return errors.As(err, &nk) || errors.As(err, &nf)
}

// apiCode is the S3 error code of err, "" when it has none.
func apiCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// describe turns an SDK failure into an error that says what to do. The
// SDK's errors carry no credentials and no SSE-C key (they name the
// operation, status, request ID and S3's code and message); they are
// wrapped, not rewritten, so errors.Is/As still see them.
func (st *store) describe(verb, key string, err error) error {
	where := fmt.Sprintf("s3://%s/%s", st.bucket, key)
	switch apiCode(err) {
	case "NoSuchBucket":
		return fmt.Errorf("%s %s: the S3 bucket %q does not exist; it must be created before it is used (the backend never creates it): %w", verb, where, st.bucket, err)
	case "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "InvalidClientTokenId",
		"XAdminUserNotFound": // versitygw's InvalidAccessKeyId
		return fmt.Errorf("%s %s: the S3 server refused the credentials (check access_key and secret_key, the profile, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY): %w", verb, where, err)
	case "AccessDenied":
		return fmt.Errorf("%s %s: access denied; the credentials are valid but not allowed to do this: %w", verb, where, err)
	}
	return fmt.Errorf("%s %s: %w", verb, where, err)
}
