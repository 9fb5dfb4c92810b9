package backendtest

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// Applier is what ApplyRecorded needs of a workspace's state manager.
type Applier interface {
	Persist(*states.State) (*statefile.File, error)
	BeginApply(base *statefile.File) (backends.Recorder, error)
}

// ApplyRecorded persists StateWith(based), begins an apply on it and
// records instances based to upto-1 as finished, failing t on any error.
// It returns the base snapshot and the recorder, still open: left so, it
// is the apply of a process that died.
func ApplyRecorded(t testing.TB, m Applier, based, upto int) (*statefile.File, backends.Recorder) {
	t.Helper()
	base, err := m.Persist(StateWith(based))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	for i := based; i < upto; i++ {
		if err := rec.SetObject(ObjectAddr(i), Object(i), Provider); err != nil {
			t.Fatal(err)
		}
	}
	return base, rec
}
