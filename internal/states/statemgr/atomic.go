package statemgr

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/uuid"
)

// replaceFile makes src the content of path such that a crash at any
// moment leaves either the old content or the new, never a mix: write a
// temporary file in the same directory (mode 0600), sync it, keep the old
// file as backupPath, rename the temporary file over path, sync the
// directory.
func replaceFile(path, backupPath string, src []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(src); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := keepBackup(path, backupPath); err != nil {
		return fmt.Errorf("keeping backup %s: %w", backupPath, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	return syncDir(dir)
}

// keepBackup makes the current file at path the backup, atomically. A
// hard link makes that free whatever the state's size; where links are not
// supported, it copies.
func keepBackup(path, backupPath string) error {
	tmpName := backupPath + ".tmp-" + uuid.NewString()
	err := os.Link(path, tmpName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // no previous snapshot
	case err != nil:
		if err := copyInto(path, tmpName); err != nil {
			os.Remove(tmpName)
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
	}
	if err := os.Rename(tmpName, backupPath); err != nil {
		os.Remove(tmpName)
		return err
	}
	return nil
}

func copyInto(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// syncDir makes renames and new names in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}
