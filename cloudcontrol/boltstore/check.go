package boltstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DamagedError says a store file is not a whole bbolt database: cut short,
// overwritten in places, or not a store at all. Open refuses such a file
// and never writes to it.
type DamagedError struct {
	// Path is the store file.
	Path string
	// Problem says what is wrong, for people.
	Problem string
}

// Error names the file, the problem and the way out, which loses what the
// file held: bbolt keeps no second copy to repair it from.
func (e *DamagedError) Error() string {
	return fmt.Sprintf("the store %s is damaged: %s. To start again with an empty store, move the file aside "+
		"(mv %s %s.damaged); the resources and requests it held are lost", e.Path, e.Problem, e.Path, e.Path)
}

// verifyFile checks an existing, non-empty store file before it is
// opened for writing: that bbolt can open it, that it is as long as its
// pages say, that every bucket, key and value can be read, and that
// bbolt's own consistency check (Tx.Check) passes. bbolt maps the file
// into memory and trusts what it reads: a page past the end of a
// truncated file is a SIGBUS, a garbage page a panic deep in bbolt. So the
// reading happens here, read-only, with faults turned into panics and
// panics into a DamagedError.
func verifyFile(path string, opts bolt.Options) error {
	size, err := fileSize(path)
	if err != nil {
		return err
	}
	// First only the meta pages, to compare the length they claim with
	// the file's before any other page is touched.
	err = readOnly(path, opts, false, func(tx *bolt.Tx) error {
		if need := tx.Size(); size < need {
			return &DamagedError{Path: path, Problem: fmt.Sprintf(
				"it is %d bytes long, but its pages reach %d bytes: it was cut short", size, need)}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Then every page: the freelist (loaded by Open when preloading),
	// every bucket, key and value, and bbolt's check.
	return readOnly(path, opts, true, func(tx *bolt.Tx) error { return checkTx(path, tx) })
}

// readOnly opens path read-only and runs fn in a read transaction, with
// memory faults on the mapped file turned into panics and any panic into
// a DamagedError. preload has Open read the freelist page.
func readOnly(path string, opts bolt.Options, preload bool, fn func(*bolt.Tx) error) (err error) {
	opts.ReadOnly = true
	opts.PreLoadFreelist = preload
	var db *bolt.DB
	defer func() {
		if r := recover(); r != nil {
			err = &DamagedError{Path: path, Problem: faultProblem(r)}
			// Closing after a fault could fault again; the file was
			// opened read-only, and the caller is about to report.
			db = nil
		}
		if db != nil {
			db.Close()
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	db, err = bolt.Open(path, 0o600, &opts)
	if err != nil {
		return openError(path, err)
	}
	return db.View(fn)
}

// checkTx reads all of tx, then runs bbolt's consistency check. The walk
// comes first because Tx.Check reads pages in a goroutine of its own,
// where a fault cannot be caught: every page it reads must already have
// been read safely.
func checkTx(path string, tx *bolt.Tx) error {
	if err := walk(tx); err != nil {
		return &DamagedError{Path: path, Problem: err.Error()}
	}
	var first error
	n := 0
	for err := range tx.Check() {
		if first == nil {
			first = err
		}
		n++
	}
	if first != nil {
		return &DamagedError{Path: path, Problem: fmt.Sprintf("bbolt's check found %d problems, the first: %v", n, first)}
	}
	return nil
}

// walk reads every bucket, key and value of tx.
func walk(tx *bolt.Tx) error {
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		return walkBucket(b)
	})
}

func walkBucket(b *bolt.Bucket) error {
	return b.ForEach(func(k, v []byte) error {
		if v != nil {
			return nil
		}
		if child := b.Bucket(k); child != nil {
			return walkBucket(child)
		}
		return nil
	})
}

// openError classifies an error of bolt.Open on an existing file.
func openError(path string, err error) error {
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return fmt.Errorf("opening store %s: another process (an endpoint on the same data directory?) has held it for 10s: %w", path, err)
	case errors.As(err, &pathErr):
		return fmt.Errorf("opening store %s: %w", path, err)
	case errors.Is(err, berrors.ErrVersionMismatch):
		return &DamagedError{Path: path, Problem: "it is not a bbolt database of a version this endpoint reads"}
	}
	return &DamagedError{Path: path, Problem: "it is not a bbolt database (" + err.Error() + ")"}
}

// faultProblem describes a recovered panic: a memory fault on the mapped
// file, or one of bbolt's own assertions on a page it read.
func faultProblem(r any) string {
	if re, ok := r.(interface{ Addr() uintptr }); ok && re != nil {
		return "a page lies past the end of the file or is unreadable (cut short or overwritten)"
	}
	return fmt.Sprintf("a page holds data that is not bbolt's (%v)", r)
}

func fileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, fmt.Errorf("opening store %s: %w", path, err)
	}
	return fi.Size(), nil
}
