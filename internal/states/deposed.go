package states

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// NewDeposedKey returns a random key for an object about to be deposed by
// create_before_destroy, one not already used by is.
func NewDeposedKey(is *ResourceInstance) addrs.DeposedKey {
	for {
		var b [4]byte
		_, _ = rand.Read(b[:])
		k := addrs.DeposedKey(hex.EncodeToString(b[:]))
		if is == nil || is.Deposed[k] == nil {
			return k
		}
	}
}
