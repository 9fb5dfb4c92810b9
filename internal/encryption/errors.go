package encryption

import "fmt"

// Error is a failure to encrypt or decrypt that the user must act on: a
// wrong passphrase, altered data, a missing key, plaintext where
// encryption is enforced. Summary and Detail read as a diagnostic; neither
// ever contains a passphrase or key material.
type Error struct {
	Summary string
	Detail  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Summary, e.Detail) }
