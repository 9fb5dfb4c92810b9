package boltstore

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// PutRequest stores the record of the endpoint request token, replacing
// any earlier one. It returns once the record is on stable storage.
func (s *DB) PutRequest(token string, record []byte) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(requestsBucket).Put([]byte(token), record)
	})
	if err != nil {
		return fmt.Errorf("saving request %s: %w", token, err)
	}
	return nil
}

// GetRequest returns the record of token, or cloudcontrol.ErrNotFound.
func (s *DB) GetRequest(token string) ([]byte, error) {
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(requestsBucket).Get([]byte(token))
		if v == nil {
			return cloudcontrol.ErrNotFound
		}
		out = append([]byte(nil), v...)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading request %s: %w", token, err)
	}
	return out, nil
}

// DeleteRequest removes the record of token; a missing record is not an
// error, so pruning can be repeated after a crash.
func (s *DB) DeleteRequest(token string) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(requestsBucket).Delete([]byte(token))
	})
	if err != nil {
		return fmt.Errorf("deleting request %s: %w", token, err)
	}
	return nil
}

// EachRequest calls fn with every stored request record in token order,
// stopping at fn's first error. fn must not keep record after it returns.
func (s *DB) EachRequest(fn func(token string, record []byte) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(requestsBucket).ForEach(func(k, v []byte) error {
			return fn(string(k), v)
		})
	})
}
