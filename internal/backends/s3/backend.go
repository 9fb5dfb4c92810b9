package s3

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/encryption"
)

// Backend is a bucket holding workspaces in Terraform's layout.
type Backend struct {
	cfg    Config
	st     *store
	dynamo dynamoLocker // nil without dynamodb_table
	// transform is cfg.Transform, or the plaintext target, which refuses
	// an encrypted state with an explanation rather than misreading it.
	transform backends.StateTransform
	// consistency is how long a read waits for the object to match the
	// digest the lock table records, and how often it looks again
	// (Terraform's 10 s and 2 s).
	consistencyFor, consistencyEvery time.Duration

	mu     sync.Mutex
	states []*State
}

var _ backends.Backend = (*Backend)(nil)

// openOptions are the seams tests set.
type openOptions struct {
	// dynamo replaces the lock table newDynamoLocker would return.
	dynamo dynamoLocker
	// httpClient replaces the SDK's (to count requests).
	httpClient aws.HTTPClient
}

// Open checks the configuration, resolves credentials and checks that the
// bucket exists and the credentials are accepted, with one listing of the
// state's key (a listing refused for lack of permission is allowed, as in
// Terraform: reading the state may still be).
func Open(ctx context.Context, cfg Config) (*Backend, error) {
	return open(ctx, cfg, openOptions{})
}

func open(ctx context.Context, cfg Config, o openOptions) (*Backend, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.WorkspaceKeyPrefix == "" {
		cfg.WorkspaceKeyPrefix = DefaultWorkspaceKeyPrefix
	}
	ac, err := awsConfig(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	b := &Backend{
		cfg:              cfg,
		st:               &store{c: s3Client(ac, &cfg, o.httpClient), bucket: cfg.Bucket, cfg: &cfg, retryFor: cfg.retryFor()},
		transform:        cfg.Transform,
		consistencyFor:   10 * time.Second,
		consistencyEvery: 2 * time.Second,
	}
	if b.transform == nil {
		b.transform = encryption.NewTarget(encryption.KindState, nil)
	}
	if cfg.SSECustomerKey != "" && cfg.Encrypt {
		b.st.sse, _ = base64.StdEncoding.DecodeString(cfg.SSECustomerKey) // checked by cfg.check
	}
	switch {
	case o.dynamo != nil:
		b.dynamo = o.dynamo
	case cfg.DynamoDBTable != "":
		if b.dynamo, err = newDynamoLocker(ac, cfg.DynamoDBTable, cfg.DynamoDBEndpoint); err != nil {
			return nil, fmt.Errorf("dynamodb_table %q: %w", cfg.DynamoDBTable, err)
		}
	}
	if err := b.probe(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// probe lists the state's key once, so that a missing bucket or refused
// credentials are reported when the backend is opened.
func (b *Backend) probe(ctx context.Context) error {
	err := b.st.retry(ctx, func(ctx context.Context) error {
		_, err := b.st.c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(b.cfg.Bucket), Prefix: aws.String(b.cfg.Key), MaxKeys: aws.Int32(1)})
		return err
	})
	if err != nil && apiCode(err) != "AccessDenied" {
		return b.st.describe("opening", b.cfg.Key, err)
	}
	return nil
}

// check refuses what Terraform refuses before any request.
func (c *Config) check() error {
	switch {
	case c.Bucket == "":
		return errors.New(`the "bucket" argument must be set`)
	case c.Key == "":
		return errors.New(`the "key" argument must be set`)
	case strings.HasPrefix(c.Key, "/") || strings.HasSuffix(c.Key, "/"):
		return fmt.Errorf(`the "key" argument %q must not start or end with "/"`, c.Key)
	case strings.HasPrefix(c.WorkspaceKeyPrefix, "/") || strings.HasSuffix(c.WorkspaceKeyPrefix, "/"):
		return fmt.Errorf(`the "workspace_key_prefix" argument %q must not start or end with "/"`, c.WorkspaceKeyPrefix)
	case c.KMSKeyID != "" && c.SSECustomerKey != "":
		return errors.New(`only one of "kms_key_id" and "sse_customer_key" can be set`)
	}
	if c.SSECustomerKey != "" {
		// The key is secret: the error describes it, never repeats it.
		k, err := base64.StdEncoding.DecodeString(c.SSECustomerKey)
		if len(c.SSECustomerKey) != 44 || err != nil || len(k) != 32 {
			return errors.New(`"sse_customer_key" must be a 256-bit key, base64-encoded (44 characters)`)
		}
	}
	return nil
}

func (c *Config) retryFor() time.Duration {
	if c.RetryFor <= 0 {
		return 30 * time.Second
	}
	return c.RetryFor
}

// statePath is the workspace's state object key, as Terraform names it.
func (b *Backend) statePath(name string) string {
	if name == backends.DefaultWorkspace {
		return b.cfg.Key
	}
	return path.Join(b.cfg.WorkspaceKeyPrefix, name, b.cfg.Key)
}

// workspaceOf is the workspace whose state object key is, "" when key is
// not one (a lock object, a journal, another configuration's key).
func (b *Backend) workspaceOf(key string) string {
	rest, ok := strings.CutPrefix(key, b.cfg.WorkspaceKeyPrefix+"/")
	if !ok {
		return ""
	}
	name, k, ok := strings.Cut(rest, "/")
	if !ok || k != b.cfg.Key {
		return ""
	}
	return name
}

// Workspaces lists "default" and every workspace with a state object
// under the prefix. A listing refused for lack of permission yields only
// "default", as in Terraform.
func (b *Backend) Workspaces() ([]string, error) {
	keys, err := b.st.list(context.Background(), b.cfg.WorkspaceKeyPrefix+"/")
	if err != nil && apiCode(err) != "AccessDenied" {
		return nil, err
	}
	var names []string
	for _, k := range keys {
		if w := b.workspaceOf(k); w != "" && w != backends.DefaultWorkspace {
			names = append(names, w)
		}
	}
	sort.Strings(names)
	return append([]string{backends.DefaultWorkspace}, names...), nil
}

// CreateWorkspace gives a new workspace its state object, an empty state
// (serial 1, a new lineage), as Terraform does so that it is listed.
func (b *Backend) CreateWorkspace(name string) error {
	if name == backends.DefaultWorkspace {
		return nil
	}
	if err := checkWorkspaceName(name); err != nil {
		return err
	}
	s := b.state(name)
	_, found, err := b.st.get(context.Background(), s.key)
	if err != nil || found {
		return err
	}
	if _, err := s.persistNew(); err != nil {
		return fmt.Errorf("creating workspace %q: %w", name, err)
	}
	return nil
}

// DeleteWorkspace deletes the workspace's state object, a crashed apply's
// journal objects and the digest the lock table keeps, as Terraform
// deletes the object and the digest. A lock object is left to its holder.
func (b *Backend) DeleteWorkspace(name string) error {
	if name == backends.DefaultWorkspace || name == "" {
		return errors.New("cannot delete default state")
	}
	if err := checkWorkspaceName(name); err != nil {
		return err
	}
	ctx := context.Background()
	s := b.state(name)
	if err := b.st.del(ctx, s.key); err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	if err := s.deleteJournal(ctx, nil); err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	if b.dynamo != nil {
		if err := b.dynamo.DeleteDigest(ctx, s.lockPath()); err != nil {
			return fmt.Errorf("deleting workspace %q: the state is deleted, its digest in %s is not: %w", name, b.cfg.DynamoDBTable, err)
		}
	}
	return nil
}

// checkWorkspaceName refuses a name that would not be one path segment.
func checkWorkspaceName(name string) error {
	if name == "" || strings.Contains(name, "/") {
		return fmt.Errorf("workspace name %q must not be empty or contain \"/\"", name)
	}
	return nil
}

// StateMgr returns the manager of workspace name's state object.
func (b *Backend) StateMgr(name string) (backends.StateMgr, error) {
	if err := checkWorkspaceName(name); err != nil {
		return nil, err
	}
	return b.state(name), nil
}

func (b *Backend) state(name string) *State {
	s := newState(b, name)
	b.mu.Lock()
	b.states = append(b.states, s)
	b.mu.Unlock()
	return s
}

// Close releases the locks its managers still hold: unlike a database
// session's, a lock object outlives the process, so a run that forgot
// one would leave it for a force-unlock.
func (b *Backend) Close() error {
	b.mu.Lock()
	states := b.states
	b.states = nil
	b.mu.Unlock()
	var errs []error
	for _, s := range states {
		if err := s.releaseForClose(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
