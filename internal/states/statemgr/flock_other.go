//go:build !unix

package statemgr

import (
	"errors"
	"os"
)

// tryFlock is not implemented off Unix yet; refusing is safer than
// running unlocked.
func tryFlock(f *os.File) (bool, error) {
	return false, errors.New("state locking is not supported on this platform yet")
}
