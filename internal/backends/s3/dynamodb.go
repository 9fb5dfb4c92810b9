package s3

import (
	"context"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// dynamoLocker is the DynamoDB lock table as this package uses it
// (dynamodb_table): package dynamolock's *Table. path is "bucket/key",
// the item Terraform names for the state object.
type dynamoLocker interface {
	// Lock takes the item without waiting; a *statemgr.LockError whose
	// Err is statemgr.ErrLocked (Holder filled) when another holds it.
	Lock(ctx context.Context, path string, info statemgr.LockInfo) error
	// Unlock releases the item, refusing when its ID is not id.
	Unlock(ctx context.Context, path, id string) error
	// Holder is the item's lock info; nil, nil when unlocked.
	Holder(ctx context.Context, path string) (*statemgr.LockInfo, error)
	// Digest is the MD5 recorded for the state object (the
	// path+"-md5" item); nil, nil when none.
	Digest(ctx context.Context, path string) ([]byte, error)
	PutDigest(ctx context.Context, path string, sum []byte) error
	DeleteDigest(ctx context.Context, path string) error
}
