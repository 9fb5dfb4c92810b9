package statemgr

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// SetObjectAsync records obj like SetObject but returns before the record
// is durable, with a function that waits until it is. The caller must not
// report the object as saved before wait returns nil. Between the two,
// the caller can do other work, so more records share each sync: an apply
// engine frees its worker for the next operation while the journal
// catches up.
func (r *Recorder) SetObjectAsync(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) (wait func() error, err error) {
	rec := statefile.ObjectRecord{Addr: addr.ResourceInstance, Deposed: addr.DeposedKey, Provider: provider, Object: obj}
	line, err := encodeObjectBody(&rec)
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", addr, err)
	}
	seq, err := r.record(line, func(s *states.State) { rec.Apply(s) })
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", addr, err)
	}
	return func() error {
		if err := r.journal.wait(seq); err != nil {
			return fmt.Errorf("recording %s: %w", addr, err)
		}
		return nil
	}, nil
}
