package dynamolock

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Table is a lock table. Its methods are safe for concurrent use.
type Table struct {
	client *dynamodb.Client
	name   string

	mu sync.Mutex
	// held maps the path of the last lock this Table took there to that
	// lock's ID and the Info it wrote, so that Unlock can delete it with
	// one conditional request. One entry per path: a newer lock on a
	// path means the older one is gone, so the map stays bounded.
	held map[string]heldLock
}

type heldLock struct{ id, info string }

// keyAttr is the table's HASH key, as Terraform's documentation has
// users create it.
const keyAttr = "LockID"

// digestSuffix is appended to the lock item's LockID to name the digest
// item.
const digestSuffix = "-md5"

// New returns the lock table named table reached with cfg, at endpoint
// when it is not empty (endpoints.dynamodb, dynamodb_endpoint or
// AWS_ENDPOINT_URL_DYNAMODB, resolved by the caller). Nothing is sent
// until a method is called.
func New(cfg aws.Config, table, endpoint string) *Table {
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	return &Table{client: client, name: table, held: map[string]heldLock{}}
}

// key is the Key (or Item) of the item whose LockID is id.
func key(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{keyAttr: &types.AttributeValueMemberS{Value: id}}
}

// getString reads one string attribute of the item whose LockID is id
// with a consistent read, as Terraform reads it; ok is false when the
// item or the attribute is missing.
func (t *Table) getString(ctx context.Context, id, attr string) (value string, ok bool, err error) {
	out, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:            aws.String(t.name),
		Key:                  key(id),
		ProjectionExpression: aws.String(keyAttr + ", " + attr),
		ConsistentRead:       aws.Bool(true),
	})
	if err != nil {
		return "", false, t.wrap("reading", id, err)
	}
	v, ok := out.Item[attr].(*types.AttributeValueMemberS)
	if !ok {
		return "", false, nil
	}
	return v.Value, true, nil
}

// wrap says which table and item a request failed on. The SDK's error
// names the operation, the status and AWS's message; it never holds the
// credentials.
func (t *Table) wrap(doing, id string, err error) error {
	return fmt.Errorf("%s item %q of DynamoDB table %q: %w", doing, id, t.name, err)
}

// conditionFailed reports whether err is DynamoDB's refusal of a
// conditional write.
func conditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}
