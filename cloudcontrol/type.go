package cloudcontrol

import "errors"

// ResourceType is one type an endpoint serves.
type ResourceType struct {
	// Name is the CloudFormation type name, AWS::S3::Bucket.
	Name string
	// Schema is the CloudFormation resource schema document (JSON). The
	// endpoint reads primaryIdentifier, createOnlyProperties,
	// readOnlyProperties and writeOnlyProperties from it.
	Schema []byte
	// Handler serves the type's operations.
	Handler Handler
}

// Store keeps resource models durably for handlers: every call that
// returns nil has reached stable storage. Models are JSON documents; the
// key of a model is its type name and primary identifier. Implementations
// are safe for concurrent use.
type Store interface {
	// Get returns the model stored under (typeName, identifier);
	// ErrNotFound when there is none.
	Get(typeName, identifier string) ([]byte, error)
	// Insert stores a new model; ErrExists when the key is taken. It is
	// atomic: of two concurrent Inserts of one key, one fails.
	Insert(typeName, identifier string, model []byte) error
	// Put replaces the model of an existing key; ErrNotFound when absent.
	Put(typeName, identifier string, model []byte) error
	// Delete removes a key; ErrNotFound when absent.
	Delete(typeName, identifier string) error
	// List returns up to limit identifiers of typeName in ascending
	// order, starting after the identifier after ("" for the start), and
	// whether more follow.
	List(typeName, after string, limit int) (ids []string, more bool, err error)
}

// Errors a Store returns.
var (
	ErrNotFound = errors.New("resource not found")
	ErrExists   = errors.New("resource already exists")
)
