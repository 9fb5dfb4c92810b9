//go:build linux

package statemgr

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryStateLock takes a write lock on the whole of f without waiting: the
// lock Terraform's local backend takes on the state file (fcntl F_SETLK),
// so that Terraform and Cairn exclude each other.
//
// It is an open file description lock (F_OFD_SETLK), which conflicts with
// Terraform's process-owned lock but, unlike one, belongs to f alone:
// closing another descriptor of the state file (every read opens one)
// does not drop it, and two managers in one process exclude each other.
func tryStateLock(f *os.File) (acquired bool, err error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: 0, Len: 0}
	for {
		err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES):
			return false, nil
		case errors.Is(err, unix.EINTR):
			continue
		default:
			return false, err
		}
	}
}
