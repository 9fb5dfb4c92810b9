//go:build unix

package statemgr

import (
	"errors"
	"os"
	"syscall"
)

// tryFlock takes an exclusive flock on f without waiting. flock locks
// belong to the open file description, so a second open of the same file
// in the same process conflicts too, and the kernel drops the lock when
// the holder exits however it exits.
func tryFlock(f *os.File) (acquired bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		default:
			return false, err
		}
	}
}
