package s3

import (
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/cairn-iac/cairn/internal/backends/s3/dynamolock"
)

// newDynamoLocker returns the lock table dynamodb_table names, reached
// with cfg at endpoint when it is set.
func newDynamoLocker(cfg aws.Config, table, endpoint string) (dynamoLocker, error) {
	return dynamolock.New(cfg, table, endpoint), nil
}
