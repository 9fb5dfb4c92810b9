package statemgr

import "fmt"

// UnreadableError reports a stored state that exists but cannot be read:
// it does not decrypt, does not parse, or holds no state where one must
// be. It is never taken for "no state" (that would plan every object
// anew and overwrite what is stored); only a forced import ("state push
// -force", the documented recovery) replaces it.
type UnreadableError struct {
	// Where names the state: a path, or a table and workspace.
	Where string
	Err   error
}

func (e *UnreadableError) Error() string { return fmt.Sprintf("reading state %s: %s", e.Where, e.Err) }

func (e *UnreadableError) Unwrap() error { return e.Err }
