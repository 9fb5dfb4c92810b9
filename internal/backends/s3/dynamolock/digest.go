package dynamolock

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// digestAttr is the digest item's attribute holding the hex MD5.
const digestAttr = "Digest"

// ErrBadDigest means the digest item's Digest is not a hex MD5.
// Terraform then skips its check; the caller decides.
var ErrBadDigest = errors.New("the Digest is not a hex MD5")

// Digest returns the MD5 recorded for the state object at path (the
// item "path-md5"), or nil, nil when none is recorded.
func (t *Table) Digest(ctx context.Context, path string) ([]byte, error) {
	hexSum, ok, err := t.getString(ctx, path+digestSuffix, digestAttr)
	if err != nil || !ok {
		return nil, err
	}
	sum, err := hex.DecodeString(hexSum)
	if err != nil || len(sum) != md5.Size {
		return nil, fmt.Errorf("item %q of DynamoDB table %q: %w", path+digestSuffix, t.name, ErrBadDigest)
	}
	return sum, nil
}

// PutDigest records sum, the MD5 of the state object just written at
// path, where Terraform and OpenTofu look for it before trusting what
// they read.
func (t *Table) PutDigest(ctx context.Context, path string, sum []byte) error {
	if len(sum) != md5.Size {
		return fmt.Errorf("dynamolock: a digest is an MD5 of %d bytes, not %d", md5.Size, len(sum))
	}
	item := key(path + digestSuffix)
	item[digestAttr] = &types.AttributeValueMemberS{Value: hex.EncodeToString(sum)}
	_, err := t.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(t.name), Item: item})
	if err != nil {
		return t.wrap("writing", path+digestSuffix, err)
	}
	return nil
}

// DeleteDigest removes the digest of path, for a state object that was
// deleted (a deleted workspace); deleting one that is not there is not
// an error.
func (t *Table) DeleteDigest(ctx context.Context, path string) error {
	_, err := t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(t.name), Key: key(path + digestSuffix)})
	if err != nil {
		return t.wrap("deleting", path+digestSuffix, err)
	}
	return nil
}
