package statemgr

import (
	"os"
	"syscall"
)

// datasync makes f's data durable. fdatasync skips the inode timestamps
// that fsync would also flush; the file size, which appends change, is
// still included.
func datasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
