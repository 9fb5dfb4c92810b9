package statemgr

import (
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// The rules below are the local backend's; other backends (pg) apply the
// same ones so that every backend accepts and refuses the same writes.

// SameState reports whether two states hold the same objects and outputs,
// the test Persist uses to decide whether a write is a new serial.
func SameState(a, b *states.State) bool { return sameState(a, b) }

// CheckImport reports why next may not replace existing without -force
// (see Filesystem.Import).
func CheckImport(next, existing *statefile.File) error { return checkImport(next, existing) }

// CheckBase reports whether base, the snapshot an apply was planned
// against, is cur, the snapshot stored now (see Filesystem.BeginApply).
func CheckBase(base, cur *statefile.File) error { return checkBase(base, cur) }
