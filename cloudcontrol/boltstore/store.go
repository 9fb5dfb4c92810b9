package boltstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// Bucket names. Resources live in one nested bucket per type name so
// that a type's identifiers are one ordered key range.
var (
	resourcesBucket = []byte("resources")
	requestsBucket  = []byte("requests")
)

// DB is an open store file. It is safe for concurrent use.
type DB struct {
	db     *bolt.DB
	notice string
}

var _ cloudcontrol.Store = (*DB)(nil)

// Open opens (creating if needed) the store file at path. A second Open
// of the same file, in this process or another, waits up to ten seconds
// for the first to close and then fails, because bbolt locks the file.
//
// An existing file is checked before anything writes to it (see
// verifyFile): a damaged one is refused with a *DamagedError and left as
// it is. An empty file (0 bytes) is taken as a new store, which Notice
// then says.
func Open(path string) (*DB, error) {
	opts := bolt.Options{Timeout: 10 * time.Second}
	var notice string
	switch fi, err := os.Stat(path); {
	case err == nil && fi.Size() == 0:
		notice = fmt.Sprintf("The store %s was empty (0 bytes), as a store is when it was cut to nothing or its "+
			"endpoint stopped before first writing it: starting with no resources or requests", path)
	case err == nil:
		if err := verifyFile(path, opts); err != nil {
			return nil, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("opening store %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &opts)
	if err != nil {
		return nil, openError(path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{resourcesBucket, requestsBucket} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("initialising store %s: %w", path, err)
	}
	return &DB{db: db, notice: notice}, nil
}

// Notice returns what Open found worth telling the user about the file
// without refusing it (an empty file taken as a new store), or "".
func (s *DB) Notice() string { return s.notice }

// Close releases the file. Calls after Close fail.
func (s *DB) Close() error {
	return s.db.Close()
}

// Get implements cloudcontrol.Store.
func (s *DB) Get(typeName, identifier string) ([]byte, error) {
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(resourcesBucket).Bucket([]byte(typeName))
		if b == nil {
			return cloudcontrol.ErrNotFound
		}
		v := b.Get([]byte(identifier))
		if v == nil {
			return cloudcontrol.ErrNotFound
		}
		out = append([]byte(nil), v...)
		return nil
	})
	return out, wrap("getting", typeName, identifier, err)
}

// Insert implements cloudcontrol.Store. bbolt serialises write
// transactions, so the existence check and the write are atomic.
func (s *DB) Insert(typeName, identifier string, model []byte) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(resourcesBucket).CreateBucketIfNotExists([]byte(typeName))
		if err != nil {
			return err
		}
		if b.Get([]byte(identifier)) != nil {
			return cloudcontrol.ErrExists
		}
		return b.Put([]byte(identifier), model)
	})
	return wrap("inserting", typeName, identifier, err)
}

// Put implements cloudcontrol.Store.
func (s *DB) Put(typeName, identifier string, model []byte) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(resourcesBucket).Bucket([]byte(typeName))
		if b == nil || b.Get([]byte(identifier)) == nil {
			return cloudcontrol.ErrNotFound
		}
		return b.Put([]byte(identifier), model)
	})
	return wrap("putting", typeName, identifier, err)
}

// Delete implements cloudcontrol.Store.
func (s *DB) Delete(typeName, identifier string) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(resourcesBucket).Bucket([]byte(typeName))
		if b == nil || b.Get([]byte(identifier)) == nil {
			return cloudcontrol.ErrNotFound
		}
		return b.Delete([]byte(identifier))
	})
	return wrap("deleting", typeName, identifier, err)
}

// List implements cloudcontrol.Store. Identifiers sort as bytes. A limit
// below one means no limit.
func (s *DB) List(typeName, after string, limit int) ([]string, bool, error) {
	var ids []string
	more := false
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(resourcesBucket).Bucket([]byte(typeName))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		k, _ := c.First()
		if after != "" {
			k, _ = c.Seek([]byte(after))
			if k != nil && string(k) == after {
				k, _ = c.Next()
			}
		}
		for ; k != nil; k, _ = c.Next() {
			if limit > 0 && len(ids) == limit {
				more = true
				return nil
			}
			ids = append(ids, string(k))
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("listing %s: %w", typeName, err)
	}
	return ids, more, nil
}

// wrap adds the key to an error, keeping the Store's sentinel errors
// recognisable with errors.Is.
func wrap(verb, typeName, identifier string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, cloudcontrol.ErrNotFound) || errors.Is(err, cloudcontrol.ErrExists) {
		return fmt.Errorf("%s %s %q: %w", verb, typeName, identifier, err)
	}
	return fmt.Errorf("%s %s %q in store: %w", verb, typeName, identifier, err)
}
