package statemgr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/google/uuid"
)

// LockInfo describes a lock holder. The lock file holds it as JSON with the
// field names Terraform uses, so that people (and tools) that read
// Terraform's lock info can read ours.
type LockInfo struct {
	// ID identifies this acquisition; Lock sets a new UUID when empty.
	ID string
	// Operation is what the holder is doing, e.g. "OperationTypeApply".
	Operation string
	// Info is free text from the holder.
	Info string
	// Who is user@host; Lock fills it in when empty.
	Who string
	// Version is the version of the program holding the lock.
	Version string
	// Created is when the lock was taken; Lock sets it.
	Created time.Time
	// Path is the state file the lock protects; Lock sets it.
	Path string
}

// fill completes the fields Lock is responsible for.
func (i *LockInfo) fill(path string, now time.Time) {
	if i.ID == "" {
		i.ID = uuid.NewString()
	}
	if i.Who == "" {
		i.Who = whoAmI()
	}
	i.Created = now.UTC()
	i.Path = path
}

// whoAmI returns user@host, with "unknown" for whatever cannot be found.
func whoAmI() string {
	name := "unknown"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	return name + "@" + host
}

// String lists the fields one per line, for error messages, in
// Terraform's order and layout. A version nobody recorded (a pg session
// that is not Cairn's) is left out rather than shown empty.
func (i *LockInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  ID:        %s\n", i.ID)
	fmt.Fprintf(&b, "  Path:      %s\n", i.Path)
	fmt.Fprintf(&b, "  Operation: %s\n", i.Operation)
	fmt.Fprintf(&b, "  Who:       %s\n", i.Who)
	if i.Version != "" {
		fmt.Fprintf(&b, "  Version:   %s\n", i.Version)
	}
	fmt.Fprintf(&b, "  Created:   %s\n", i.Created)
	fmt.Fprintf(&b, "  Info:      %s\n", i.Info)
	return b.String()
}

func (i *LockInfo) marshal() []byte {
	b, _ := json.Marshal(i) // cannot fail: strings and a time
	return b
}

// LockError is returned when the lock could not be acquired. It names the
// holder so that people can tell whether to wait or to look for a stuck
// run.
type LockError struct {
	// Holder is what the lock file says about the holder, or nil if it
	// could not be read (the holder may have been writing it).
	Holder *LockInfo
	// Err is why the attempt ended: ErrLocked after the timeout, the
	// context's error, or a failure to use the lock file.
	Err error
}

// ErrLocked means another holder kept the lock for the whole timeout.
var ErrLocked = errors.New("the state is locked by another run")

func (e *LockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Error acquiring the state lock: %v\n", e.Err)
	if !e.Contended() {
		return strings.TrimSuffix(b.String(), "\n")
	}
	if e.Holder != nil {
		b.WriteString("Lock Info:\n")
		b.WriteString(e.Holder.String())
		b.WriteString("\nCairn locks the state so that only one run changes it at a time. " +
			"Wait for the run named above to finish and try again; " +
			"if it has died, the operating system has already released its lock.")
		return b.String()
	}
	b.WriteString("\nAnother run holds the lock, but who it is could not be read: it was " +
		"taking or releasing the lock at that moment. Cairn locks the state so that only one run " +
		"changes it at a time. Try again, with -lock-timeout to wait for the other run; if it has " +
		"died, the operating system has already released its lock.")
	return b.String()
}

// Contended reports whether another holder kept the lock (as opposed to
// the lock file being unusable).
func (e *LockError) Contended() bool {
	return errors.Is(e.Err, ErrLocked) || errors.Is(e.Err, context.Canceled) || errors.Is(e.Err, context.DeadlineExceeded)
}

func (e *LockError) Unwrap() error { return e.Err }
