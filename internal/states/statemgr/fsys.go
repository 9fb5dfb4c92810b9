package statemgr

import (
	"io"
	"io/fs"
	"os"
)

// fileSystem is the state writer's way to the disk for every operation
// that writes: creating and writing files, syncing them and renaming them.
// Reads go straight to the os package, since a failed read changes
// nothing. The seam exists so that tests can fail any one write, sync or
// rename (ENOSPC, EIO) and check that no acknowledged record is lost;
// Filesystem uses osFS.
type fileSystem interface {
	OpenFile(name string, flag int, perm fs.FileMode) (file, error)
	CreateTemp(dir, pattern string) (file, error)
	Rename(oldpath, newpath string) error
}

// file is an open file as the state writer uses it.
type file interface {
	io.Writer
	io.WriterAt
	// Sync makes the file's content durable.
	Sync() error
	Truncate(size int64) error
	Close() error
	Name() string
}

// osFS is the real file system.
type osFS struct{}

var _ fileSystem = osFS{}

func (osFS) OpenFile(name string, flag int, perm fs.FileMode) (file, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return f, nil
}

func (osFS) CreateTemp(dir, pattern string) (file, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (osFS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// syncData makes f's data durable, with fdatasync where f is a real file.
func syncData(f file) error {
	if osf, ok := f.(*os.File); ok {
		return datasync(osf)
	}
	return f.Sync()
}
