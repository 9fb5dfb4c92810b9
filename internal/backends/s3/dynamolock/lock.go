package dynamolock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// infoAttr is the lock item's attribute holding the lock's JSON.
const infoAttr = "Info"

var (
	// ErrNotLocked means Unlock found no lock item.
	ErrNotLocked = errors.New("the state is not locked")
	// ErrOtherHolder means Unlock was given an ID that is not the
	// holder's; the LockError names the holder.
	ErrOtherHolder = errors.New("the lock is held under another ID")
)

// Lock takes the lock on the state object at path ("bucket/key", the
// item Terraform names) for info, with one conditional PutItem. info.ID
// must be set: it is what Unlock is given. As Terraform does, Lock sets
// info.Path to path, and Created to now when it is zero.
//
// When another run holds the lock, the error is a *statemgr.LockError
// with Err statemgr.ErrLocked and Holder the holder's info (nil if it
// could not be read); Lock does not wait. Any other failure is a
// *statemgr.LockError with the request's error.
func (t *Table) Lock(ctx context.Context, path string, info statemgr.LockInfo) error {
	if info.ID == "" {
		return &statemgr.LockError{Err: errors.New("dynamolock: a lock needs an ID")}
	}
	info.Path = path
	if info.Created.IsZero() {
		info.Created = time.Now().UTC()
	}
	js, err := json.Marshal(&info)
	if err != nil {
		return &statemgr.LockError{Err: err}
	}
	item := key(path)
	item[infoAttr] = &types.AttributeValueMemberS{Value: string(js)}
	_, err = t.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(t.name),
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(" + keyAttr + ")"),
	})
	switch {
	case conditionFailed(err):
		holder, _ := t.Holder(ctx, path) // nil when it cannot be read: the holder may just have let go
		return &statemgr.LockError{Holder: holder, Err: fmt.Errorf("item %q of DynamoDB table %q: %w", path, t.name, statemgr.ErrLocked)}
	case err != nil:
		return &statemgr.LockError{Err: t.wrap("locking", path, err)}
	}
	t.mu.Lock()
	t.held[path] = heldLock{id: info.ID, info: string(js)}
	t.mu.Unlock()
	return nil
}

// Unlock releases the lock on path if its ID is id. It deletes the item
// only while it still holds the Info the holder wrote, so the check and
// the delete are one atomic step: for a lock this Table took, one
// conditional DeleteItem; for another's (a forced unlock), a read of the
// holder's Info first.
//
// It refuses with a *statemgr.LockError: Err wraps ErrNotLocked when
// there is no lock, ErrOtherHolder (Holder filled) when the lock's ID is
// not id.
func (t *Table) Unlock(ctx context.Context, path, id string) error {
	t.mu.Lock()
	h, mine := t.held[path]
	t.mu.Unlock()
	if mine && h.id == id {
		err := t.deleteIfInfo(ctx, path, h.info)
		if err == nil || !conditionFailed(err) {
			t.forget(path, id)
			return lockError(nil, err)
		}
		// The item is not ours any more (broken and taken by another):
		// say whose it is.
	}
	js, ok, err := t.getString(ctx, path, infoAttr)
	if err != nil {
		return &statemgr.LockError{Err: err}
	}
	if !ok {
		t.forget(path, id)
		return &statemgr.LockError{Err: fmt.Errorf("item %q of DynamoDB table %q: %w", path, t.name, ErrNotLocked)}
	}
	holder, err := parseInfo(js)
	if err != nil {
		return &statemgr.LockError{Err: t.wrap("reading", path, err)}
	}
	if holder.ID != id {
		t.forget(path, id)
		return &statemgr.LockError{Holder: holder, Err: fmt.Errorf("lock ID %q: %w %q", id, ErrOtherHolder, holder.ID)}
	}
	err = t.deleteIfInfo(ctx, path, js)
	if conditionFailed(err) {
		err = fmt.Errorf("item %q of DynamoDB table %q changed while it was being unlocked: %w", path, t.name, statemgr.ErrLocked)
	}
	t.forget(path, id)
	return lockError(holder, err)
}

// deleteIfInfo deletes the lock item at path while its Info is js, as
// OpenTofu's unlock does ("Info = :info").
func (t *Table) deleteIfInfo(ctx context.Context, path, js string) error {
	_, err := t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(t.name),
		Key:                       key(path),
		ConditionExpression:       aws.String(infoAttr + " = :info"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":info": &types.AttributeValueMemberS{Value: js}},
	})
	if err != nil && !conditionFailed(err) {
		return t.wrap("unlocking", path, err)
	}
	return err
}

// forget drops what the Table remembers of its lock id on path, once
// that lock is released or known to be gone.
func (t *Table) forget(path, id string) {
	t.mu.Lock()
	if t.held[path].id == id {
		delete(t.held, path)
	}
	t.mu.Unlock()
}

// lockError is nil for a nil err, else err as a *statemgr.LockError.
func lockError(holder *statemgr.LockInfo, err error) error {
	if err == nil {
		return nil
	}
	return &statemgr.LockError{Holder: holder, Err: err}
}

// Holder returns the info of the lock on path, or nil, nil when the
// state is not locked.
func (t *Table) Holder(ctx context.Context, path string) (*statemgr.LockInfo, error) {
	js, ok, err := t.getString(ctx, path, infoAttr)
	if err != nil || !ok {
		return nil, err
	}
	info, err := parseInfo(js)
	if err != nil {
		return nil, t.wrap("reading", path, err)
	}
	return info, nil
}

// parseInfo reads a lock item's Info as Terraform writes it.
func parseInfo(js string) (*statemgr.LockInfo, error) {
	var info statemgr.LockInfo
	if err := json.Unmarshal([]byte(js), &info); err != nil {
		return nil, fmt.Errorf("its Info is not a lock's JSON: %w", err)
	}
	return &info, nil
}
