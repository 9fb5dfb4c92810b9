package testfiles

import (
	"time"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// Status is a run's or a file's outcome. The order matters: a file's
// status is the worst of its runs', as in Terraform.
type Status byte

const (
	Pending Status = iota
	Skip
	Pass
	Fail
	Error
)

// String is the word Terraform prints ("pass", "fail", "skip", "error").
func (s Status) String() string {
	switch s {
	case Skip:
		return "skip"
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Error:
		return "error"
	}
	return "pending"
}

// Merge returns the worse of s and o.
func (s Status) Merge(o Status) Status {
	if o > s {
		return o
	}
	return s
}

// RunResult is what one run did.
type RunResult struct {
	Run    *Run
	Status Status
	// Diags are the run's diagnostics: failed assertions, the plan's or
	// apply's errors and warnings.
	Diags   diags.Diagnostics
	Elapsed time.Duration
	// Plan is the run's plan (nil when planning failed); State the
	// state after an apply-mode run. Only for -verbose output.
	Plan    *plans.Plan
	State   *states.State
	Schemas providers.Schemas
}

// FileResult is what one file did.
type FileResult struct {
	File   *File
	Status Status
	Runs   []*RunResult
	// Diags are the file's own diagnostics: variables that fail to
	// evaluate, and teardown (destroy) problems.
	Diags diags.Diagnostics
	// Leftover lists, per state that could not be destroyed, the
	// resource instances left in it.
	Leftover []Leftover
	Elapsed  time.Duration
}

// Leftover is a state a teardown failed to destroy.
type Leftover struct {
	// Run is the last run that used the state.
	Run       string
	Instances []string
}

// Observer hears of a file's progress as it happens, for a front end
// that prints lines as Terraform does. Calls come from one goroutine.
type Observer interface {
	FileStart(f *File)
	RunStart(f *File, r *Run)
	RunDone(f *File, r *RunResult)
	TeardownStart(f *File)
	FileDone(f *FileResult)
}
