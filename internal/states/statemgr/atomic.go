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
// directory. beforeRename, when not nil, is called with the temporary
// file's name once it is complete, just before the rename; its error
// aborts the replacement.
//
// When path is a symbolic link, the file it points to is replaced (the
// temporary file goes beside the target, and the link stays a link), as
// Terraform writes through a linked state file; the backup is then a copy
// of the target's old content, never a second link.
//
// reseal, when not nil, turns the old content into the backup's instead
// of keeping it as it is: with encryption configured the backup is
// re-encrypted with the current key, as OpenTofu writes it, so that
// migrating to encryption leaves no plaintext backup behind.
func replaceFile(fsys fileSystem, path, backupPath string, src []byte, reseal func([]byte) ([]byte, error), beforeRename func(tmp string) error) error {
	target, err := resolveLinks(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmp, err := fsys.CreateTemp(dir, "."+base+".tmp-*")
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
	keep := keepBackup
	if reseal != nil {
		keep = func(fsys fileSystem, path, backupPath string) error {
			return keepResealedBackup(fsys, path, backupPath, reseal)
		}
	}
	if err := keep(fsys, target, backupPath); err != nil {
		return fmt.Errorf("keeping backup %s: %w", backupPath, err)
	}
	if beforeRename != nil {
		if err := beforeRename(tmp.Name()); err != nil {
			return err
		}
	}
	if err := fsys.Rename(tmp.Name(), target); err != nil {
		return err
	}
	done = true
	return syncDir(fsys, dir)
}

// maxLinks bounds how many symbolic links resolveLinks follows, as the
// kernel does (ELOOP).
const maxLinks = 40

// resolveLinks returns the file path finally names after following
// symbolic links; a link to a file that does not exist yet resolves to
// that file's path.
func resolveLinks(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// keepBackup makes the current file at path, unless it is empty, the
// backup, atomically. A
// hard link makes that free whatever the state's size; where links are not
// supported, it copies.
func keepBackup(fsys fileSystem, path, backupPath string) error {
	// An empty file is no snapshot: the lock creates one (as Terraform's
	// does) before the first snapshot is written.
	if fi, err := os.Stat(path); err == nil && fi.Size() == 0 {
		return nil
	}
	tmpName := backupPath + ".tmp-" + uuid.NewString()
	err := os.Link(path, tmpName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // no previous snapshot
	case err != nil:
		if err := copyInto(fsys, path, tmpName); err != nil {
			os.Remove(tmpName)
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
	}
	if err := fsys.Rename(tmpName, backupPath); err != nil {
		os.Remove(tmpName)
		return err
	}
	return nil
}

// keepResealedBackup writes reseal(old content) as the backup, through a
// synced temporary file renamed into place, so that a crash leaves the
// old backup or the new one. When reseal returns nothing (the old content
// is fine as it is), the old file is kept by keepBackup.
func keepResealedBackup(fsys fileSystem, path, backupPath string, reseal func([]byte) ([]byte, error)) error {
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(old) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	src, err := reseal(old)
	if err != nil {
		return err
	}
	if src == nil {
		return keepBackup(fsys, path, backupPath)
	}
	dir, base := filepath.Split(backupPath)
	if dir == "" {
		dir = "."
	}
	tmp, err := fsys.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(src)
	serr := tmp.Sync()
	if err := errors.Join(werr, serr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := fsys.Rename(tmp.Name(), backupPath); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

func copyInto(fsys fileSystem, from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := fsys.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
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
func syncDir(fsys fileSystem, dir string) error {
	d, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}
