package statefile

import (
	"errors"

	"github.com/cairn-iac/cairn/internal/states"
)

// File is one state snapshot with the metadata the format carries around
// the state itself.
type File struct {
	// TerraformVersion is the version of the program that wrote the
	// snapshot. Cairn writes "1.5.7", the Terraform release whose format
	// and semantics it follows, so that Terraform accepts its files.
	TerraformVersion string
	// Serial increases each time a changed snapshot is written; together
	// with Lineage it orders snapshots of the same state.
	Serial uint64
	// Lineage is a UUID chosen when a state is first created. Snapshots
	// with different lineages are of unrelated states and must never
	// replace one another.
	Lineage string
	// State is the snapshot's content. Read never returns a nil State.
	State *states.State
}

// ErrNoState is returned by Read for empty input. Terraform leaves an empty
// state file behind when it locks a state that does not exist yet, so an
// empty file means "no state", not corruption.
var ErrNoState = errors.New("no state: the state file is empty")
