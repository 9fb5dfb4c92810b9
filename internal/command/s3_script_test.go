package command

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/internal/backends/s3"
	"github.com/cairn-iac/cairn/internal/testdynamo"
	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// TestS3Scripts runs the scripts in testdata/s3script against a real
// S3-compatible server (versitygw on loopback, see internal/tests3). Each
// script gets a bucket of its own in $BUCKET, the endpoint in $S3_URL,
// the server's credentials and region in the AWS_* variables (not
// AWS_ENDPOINT_URL_S3: the scripts name the endpoint where each tool
// reads it), a PostgreSQL database in $PG_CONN_STR (migrations between
// pg and s3), and OpenTofu and Terraform 1.5.7 on the PATH when built.
func TestS3Scripts(t *testing.T) {
	srv := tests3.Start(t)
	// One DynamoDB lock table for dynamodb_table scripts, which use
	// their own keys.
	dyn := testdynamo.Start(t, testdynamo.Options{AccessKey: srv.AccessKey, SecretKey: srv.SecretKey, Tables: []string{"locks"}})
	pgURL := func() (string, error) { return "", errors.New("no PostgreSQL") }
	if os.Getenv("CAIRN_S3_SCRIPTS_NO_PG") == "" {
		pgsrv.Server(t)
		pgURL = pgsrv.NewDatabase
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/s3script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CHECKPOINT_DISABLE", "1")
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			for _, kv := range srv.Env() {
				if k, v, _ := strings.Cut(kv, "="); k != "AWS_ENDPOINT_URL_S3" {
					env.Setenv(k, v)
				}
			}
			env.Setenv("S3_URL", srv.URL)
			env.Setenv("DYNAMO_URL", dyn.URL)
			env.Setenv("CAIRN_S3_RETRY_TIMEOUT", "2s")
			bucket := "s" + randomSuffix()
			if err := createBucket(srv.Client(), bucket); err != nil {
				return err
			}
			env.Setenv("BUCKET", bucket)
			env.Values[s3BucketKey{}] = bucketRef{srv.Client(), bucket}
			if url, err := pgURL(); err == nil {
				env.Setenv("PG_CONN_STR", url)
			}
			if tofu, ok := testproviders.OpenTofu(); ok {
				env.Setenv("PATH", filepath.Dir(tofu)+string(os.PathListSeparator)+env.Getenv("PATH"))
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "pg" {
				return os.Getenv("CAIRN_S3_SCRIPTS_NO_PG") == "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":  cmdExitCode,
			"waitfile":  cmdWaitFile,
			"sleep":     cmdSleep,
			"s3":        cmdS3,
			"cmprecord": cmdCmpRecord,
		},
	})
}

type s3BucketKey struct{}

// bucketRef is a script's bucket.
type bucketRef struct {
	client *awss3.Client
	name   string
}

func randomSuffix() string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func createBucket(c *awss3.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.CreateBucket(ctx, &awss3.CreateBucketInput{Bucket: aws.String(name)})
	return err
}

// cmdS3 reads and writes the script's bucket:
//
//	s3 ls [PREFIX]      prints the keys, one a line, sorted ("(no objects)")
//	s3 get KEY [FILE]   prints the object (or writes it to FILE)
//	s3 put KEY FILE     writes the object from FILE
//	s3 rm KEY           deletes the object
//
// "! s3 get KEY" passes when there is no such object.
func cmdS3(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: s3 ls|get|put|rm ...")
	}
	b := ts.Value(s3BucketKey{}).(bucketRef)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	switch {
	case args[0] == "ls" && len(args) <= 2:
		var prefix string
		if len(args) == 2 {
			prefix = args[1]
		}
		var keys []string
		p := awss3.NewListObjectsV2Paginator(b.client, &awss3.ListObjectsV2Input{Bucket: aws.String(b.name), Prefix: aws.String(prefix)})
		for p.HasMorePages() && err == nil {
			var page *awss3.ListObjectsV2Output
			if page, err = p.NextPage(ctx); err == nil {
				for _, o := range page.Contents {
					keys = append(keys, aws.ToString(o.Key))
				}
			}
		}
		sort.Strings(keys)
		if len(keys) == 0 {
			// testscript keeps the previous command's stdout when a
			// command writes none.
			fmt.Fprintln(ts.Stdout(), "(no objects)")
		}
		for _, k := range keys {
			fmt.Fprintln(ts.Stdout(), k)
		}
	case args[0] == "get" && (len(args) == 2 || len(args) == 3):
		var out *awss3.GetObjectOutput
		out, err = b.client.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(b.name), Key: aws.String(args[1])})
		if err == nil {
			var body []byte
			body, err = io.ReadAll(out.Body)
			out.Body.Close()
			if len(args) == 3 {
				ts.Check(os.WriteFile(ts.MkAbs(args[2]), body, 0o644))
			} else {
				ts.Stdout().Write(body)
			}
		}
	case args[0] == "put" && len(args) == 3:
		body := []byte(ts.ReadFile(args[2]))
		_, err = b.client.PutObject(ctx, &awss3.PutObjectInput{Bucket: aws.String(b.name), Key: aws.String(args[1]), Body: bytes.NewReader(body)})
	case args[0] == "rm" && len(args) == 2:
		_, err = b.client.DeleteObject(ctx, &awss3.DeleteObjectInput{Bucket: aws.String(b.name), Key: aws.String(args[1])})
	default:
		ts.Fatalf("usage: s3 ls|get|put|rm ...")
	}
	var missing *types.NoSuchKey
	if neg {
		if err == nil || !errors.As(err, &missing) {
			ts.Fatalf("s3 %s: want no such object, got %v", strings.Join(args, " "), err)
		}
		return
	}
	if err != nil {
		ts.Fatalf("s3 %s: %v", strings.Join(args, " "), err)
	}
}

// cmdCmpRecord compares two .terraform/terraform.tfstate files as JSON
// values, lineage aside (random), and byte for byte when both have none:
//
//	cmprecord tofu/.terraform/terraform.tfstate .terraform/terraform.tfstate
func cmdCmpRecord(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmprecord FILE1 FILE2")
	}
	a, b := ts.ReadFile(args[0]), ts.ReadFile(args[1])
	strip := func(src string) (map[string]any, bool) {
		var doc map[string]any
		ts.Check(json.Unmarshal([]byte(src), &doc))
		_, had := doc["lineage"]
		delete(doc, "lineage")
		return doc, had
	}
	da, la := strip(a)
	db, lb := strip(b)
	diff := cmp.Diff(da, db)
	if !la && !lb && a != b && diff == "" {
		diff = "the same JSON written with different bytes"
	}
	if (diff != "") != neg {
		ts.Fatalf("%s and %s differ:\n%s", args[0], args[1], diff)
	}
}

// s3HoldLock takes the .tflock lock of state object args[1] in $BUCKET
// at $S3_URL (credentials from the environment), writes a "locked" file,
// and holds the lock for the duration args[2]: another run holding it.
func s3HoldLock() {
	d, err := time.ParseDuration(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	b, err := s3.Open(ctx, s3.Config{
		Bucket: os.Getenv("BUCKET"), Key: os.Args[1], Region: os.Getenv("AWS_REGION"),
		S3Endpoint: os.Getenv("S3_URL"), UsePathStyle: true, UseLockfile: true,
		AccessKey: os.Getenv("AWS_ACCESS_KEY_ID"), SecretKey: os.Getenv("AWS_SECRET_ACCESS_KEY"),
		SkipCredentialsValidation: true, SkipRequestingAccountID: true,
	})
	holdBackendLock(ctx, b, err, defaultWorkspace, d)
}
