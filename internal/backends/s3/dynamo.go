package s3

import (
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// newDynamoLocker returns the lock table dynamodb_table names, reached
// with cfg at endpoint when it is set.
func newDynamoLocker(cfg aws.Config, table, endpoint string) (dynamoLocker, error) {
	return nil, errors.New("DynamoDB locking is not available yet: it arrives with package dynamolock; use use_lockfile = true meanwhile")
}
