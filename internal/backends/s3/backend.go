package s3

import (
	"context"
	"errors"

	"github.com/cairn-iac/cairn/internal/backends"
)

// Backend is a bucket holding workspaces in Terraform's layout.
type Backend struct {
	backends.Backend
}

// Open checks the configuration and connects. (Being built on branch h1;
// this placeholder refuses every configuration.)
func Open(ctx context.Context, cfg Config) (*Backend, error) {
	return nil, errors.New("the s3 backend is not built yet")
}
