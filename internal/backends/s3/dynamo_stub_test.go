package s3

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/tests3"
)

// This file tests dynamo.go's placeholder; it goes when dynamo.go
// returns dynamolock.New.

// TestDynamoDBTableNotYetAvailable: until package dynamolock is wired
// in, dynamodb_table is refused with an error saying so, not ignored
// (which would run without the lock the team relies on).
func TestDynamoDBTableNotYetAvailable(t *testing.T) {
	srv := tests3.Start(t)
	_, err := Open(context.Background(), dynamoConfig(srv, false))
	if err == nil || !strings.Contains(err.Error(), "dynamodb_table") {
		t.Fatalf("Open with dynamodb_table = %v", err)
	}
}
