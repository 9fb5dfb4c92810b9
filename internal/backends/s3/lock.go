package s3

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"time"

	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// heldLock is a lock this manager holds: its ID and which of the two
// locks (the .tflock object, the DynamoDB item) it took.
type heldLock struct {
	id           string
	file, dynamo bool
}

func (s *State) lockKey() string { return s.key + ".tflock" }

// lockingEnabled reports whether a lock is configured; without one,
// Terraform does not lock, and neither does Cairn.
func (s *State) lockingEnabled() bool { return s.b.cfg.UseLockfile || s.b.dynamo != nil }

// Lock takes the workspace's lock: the .tflock object (use_lockfile),
// then the DynamoDB item (dynamodb_table), retrying until timeout (0
// tries once). The lock object's body is info as Terraform and OpenTofu
// write it, so each tool's refusal names the other's holder. A lock
// outlives a crashed run; ForceUnlock breaks it.
func (s *State) Lock(ctx context.Context, info statemgr.LockInfo, timeout time.Duration) (func() error, error) {
	if !s.lockingEnabled() {
		return func() error { return nil }, nil
	}
	s.fillInfo(&info)
	deadline := time.Now().Add(timeout)
	wait := 100 * time.Millisecond
	for {
		held, holder, err := s.lockOnce(ctx, &info)
		if err != nil {
			return nil, &statemgr.LockError{Err: err}
		}
		if held != nil {
			return s.unlockFunc(held), nil
		}
		if !time.Now().Add(wait).Before(deadline) {
			return nil, &statemgr.LockError{Holder: holder, Err: fmt.Errorf("workspace %q (%s): %w", s.name, s.lockWhere(), statemgr.ErrLocked)}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, &statemgr.LockError{Holder: holder, Err: ctx.Err()}
		}
		wait = min(wait*2, time.Second)
	}
}

// lockOnce tries the lock once under the manager's mutex, which is not
// held while Lock waits between tries (a Read may run meanwhile).
func (s *State) lockOnce(ctx context.Context, info *statemgr.LockInfo) (*heldLock, *statemgr.LockInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held != nil {
		return nil, nil, fmt.Errorf("workspace %q: this run already holds the lock", s.name)
	}
	held, holder, err := s.tryLock(ctx, info)
	if held != nil {
		s.held = held
	}
	return held, holder, err
}

// lockWhere names the lock, for messages.
func (s *State) lockWhere() string {
	switch {
	case s.b.cfg.UseLockfile && s.b.dynamo != nil:
		return "s3://" + s.b.cfg.Bucket + "/" + s.lockKey() + " and DynamoDB table " + s.b.cfg.DynamoDBTable
	case s.b.cfg.UseLockfile:
		return "s3://" + s.b.cfg.Bucket + "/" + s.lockKey()
	}
	return "DynamoDB table " + s.b.cfg.DynamoDBTable
}

// fillInfo completes what Lock is responsible for, as Terraform fills it.
func (s *State) fillInfo(info *statemgr.LockInfo) {
	if info.ID == "" {
		info.ID = uuid.NewString()
	}
	if info.Version == "" {
		info.Version = statemgr.TerraformVersion
	}
	if info.Who == "" {
		info.Who = whoAmI()
	}
	info.Created = time.Now().UTC()
	info.Path = s.lockPath()
}

// whoAmI is user@host, "unknown" for what cannot be found.
func whoAmI() string {
	name, host := "unknown", "unknown"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		host = h
	}
	return name + "@" + host
}

// tryLock takes both configured locks once, without waiting: the lock
// object first, then the item, giving the object back when the item is
// held, as Terraform does. held is nil and holder names the holder (when
// it can be read) when another run has either.
func (s *State) tryLock(ctx context.Context, info *statemgr.LockInfo) (held *heldLock, holder *statemgr.LockInfo, err error) {
	h := &heldLock{id: info.ID}
	if s.b.cfg.UseLockfile {
		body, err := json.Marshal(info)
		if err != nil {
			return nil, nil, err
		}
		err = s.b.st.put(ctx, s.lockKey(), body, true)
		if errors.Is(err, errPrecondition) {
			holder, _ := s.fileHolder(ctx)
			if holder != nil && holder.ID == info.ID {
				// Our own write, whose acknowledgement was lost and retried.
				err = nil
			} else {
				return nil, holder, nil
			}
		}
		if err != nil {
			return nil, nil, err
		}
		h.file = true
	}
	if s.b.dynamo != nil {
		err := s.b.dynamo.Lock(ctx, s.lockPath(), *info)
		if err != nil {
			if h.file {
				_ = s.releaseFile(ctx, info.ID)
			}
			var le *statemgr.LockError
			if errors.As(err, &le) && errors.Is(le.Err, statemgr.ErrLocked) {
				return nil, le.Holder, nil
			}
			return nil, nil, fmt.Errorf("DynamoDB table %s: %w", s.b.cfg.DynamoDBTable, err)
		}
		h.dynamo = true
	}
	return h, nil, nil
}

// fileHolder reads the lock object; nil, nil when there is none.
func (s *State) fileHolder(ctx context.Context) (*statemgr.LockInfo, error) {
	data, found, err := s.b.st.get(ctx, s.lockKey())
	if err != nil || !found {
		return nil, err
	}
	var info statemgr.LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("the lock object s3://%s/%s is not lock info: %w", s.b.cfg.Bucket, s.lockKey(), err)
	}
	return &info, nil
}

// releaseFile deletes the lock object if it is lock id's.
func (s *State) releaseFile(ctx context.Context, id string) error {
	holder, err := s.fileHolder(ctx)
	if err != nil {
		return err
	}
	if holder == nil {
		return nil
	}
	if holder.ID != id {
		return &statemgr.LockError{Holder: holder, Err: fmt.Errorf("the lock object s3://%s/%s is held by lock %q, not %q", s.b.cfg.Bucket, s.lockKey(), holder.ID, id)}
	}
	return s.b.st.del(ctx, s.lockKey())
}

// release gives back both parts of h, reporting both failures.
func (s *State) release(ctx context.Context, h *heldLock) error {
	var errs []error
	if h.file {
		if err := s.releaseFile(ctx, h.id); err != nil {
			errs = append(errs, err)
		}
	}
	if h.dynamo {
		if err := s.b.dynamo.Unlock(ctx, s.lockPath(), h.id); err != nil {
			errs = append(errs, fmt.Errorf("DynamoDB table %s: %w", s.b.cfg.DynamoDBTable, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("unlocking workspace %q: %w", s.name, err)
	}
	return nil
}

// unlockFunc releases h; calling it again does nothing.
func (s *State) unlockFunc(h *heldLock) func() error {
	return func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.held != h {
			return nil
		}
		if s.rec != nil {
			return fmt.Errorf("unlocking workspace %q: an apply is still recording; close it first", s.name)
		}
		s.held = nil
		return s.release(context.Background(), h)
	}
}

// holdLocked takes the lock for one operation when the caller does not
// hold it; release gives back only a lock taken here. s.mu must be held.
func (s *State) holdLocked(ctx context.Context, operation string) (release func() error, err error) {
	if s.held != nil || !s.lockingEnabled() {
		return func() error { return nil }, nil
	}
	info := statemgr.LockInfo{Operation: operation}
	s.fillInfo(&info)
	h, holder, err := s.tryLock(ctx, &info)
	if err != nil {
		return nil, &statemgr.LockError{Err: err}
	}
	if h == nil {
		return nil, &statemgr.LockError{Holder: holder, Err: fmt.Errorf("workspace %q (%s): %w", s.name, s.lockWhere(), statemgr.ErrLocked)}
	}
	s.held = h
	return func() error {
		s.held = nil
		return s.release(ctx, h)
	}, nil
}

// ForceUnlock breaks the lock with the given ID, held by a run that is
// stuck or died: the lock object is deleted if it is that lock's, and
// the DynamoDB item released.
func (s *State) ForceUnlock(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.lockingEnabled() {
		return fmt.Errorf("workspace %q has no lock to break: neither use_lockfile nor dynamodb_table is set", s.name)
	}
	ctx := context.Background()
	var errs []error
	if s.b.cfg.UseLockfile {
		holder, err := s.fileHolder(ctx)
		switch {
		case err != nil:
			errs = append(errs, err)
		case holder == nil && s.b.dynamo == nil:
			return fmt.Errorf("workspace %q is not locked (no lock object s3://%s/%s)", s.name, s.b.cfg.Bucket, s.lockKey())
		case holder != nil:
			errs = append(errs, s.releaseFile(ctx, id))
		}
	}
	if s.b.dynamo != nil {
		if err := s.b.dynamo.Unlock(ctx, s.lockPath(), id); err != nil {
			errs = append(errs, fmt.Errorf("DynamoDB table %s: %w", s.b.cfg.DynamoDBTable, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if s.held != nil && s.held.id == id {
		s.held = nil
	}
	return nil
}

// releaseForClose releases a lock the manager still holds when the
// backend closes.
func (s *State) releaseForClose() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.held
	if h == nil {
		return nil
	}
	s.held = nil
	return s.release(context.Background(), h)
}
