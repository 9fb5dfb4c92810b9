package awscc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/cairn-iac/cairn/cfnschema"
)

// runtime is one configured provider's connection to Cloud Control,
// shared by its resources and data sources. It is immutable once built,
// but for its list cache, which synchronizes itself.
type runtime struct {
	api     api
	region  string
	roleARN string
	// stop is cancelled when the engine stops the provider (Ctrl-C):
	// every operation in flight watches it.
	stop context.Context
	poll backoff
	// defaultTags are the provider's default_tags, nil when none.
	defaultTags map[string]string
	// defaultTagsUnknown is set when the configuration's default_tags are
	// not known yet (planning before a value they depend on exists).
	defaultTagsUnknown bool
	// lists answers refresh reads from ListResources pages; nil when the
	// cache is disabled.
	lists *listCache
	// accounts learns the account identities carry; nil when unknown.
	accounts *accountSource
}

// defaultOperationTimeout is how long an operation waits when neither
// the schema's handler nor the configuration says.
const defaultOperationTimeout = 120 * time.Minute

// errStopped is the cause of an operation ended by StopProvider.
var errStopped = errors.New("the provider was stopped (interrupted)")

// timeoutError is the cause of an operation that ran out of time.
type timeoutError struct {
	op      string
	timeout time.Duration
}

func (e timeoutError) Error() string {
	return fmt.Sprintf("%s timed out after %s", e.op, e.timeout)
}

// operationContext returns the context of one operation: ended by the
// caller, by timeout, or by StopProvider, with the reason as its cause.
func (r *runtime) operationContext(ctx context.Context, op string, timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := context.WithCancelCause(ctx)
	ctx, expire := context.WithTimeoutCause(ctx, timeout, timeoutError{op, timeout})
	unregister := context.AfterFunc(r.stop, func() { stop(errStopped) })
	return ctx, func() {
		unregister()
		expire()
		stop(nil)
	}
}

// backoff spaces the polls of a resource request: the first within
// first, then doubling with jitter up to max. A request's RetryAfter, when
// later, wins.
type backoff struct{ first, max time.Duration }

var defaultBackoff = backoff{first: 200 * time.Millisecond, max: 4 * time.Second}

// delay returns the wait before poll number attempt (from 0): uniformly
// random in the upper half of the doubled delay, so that many requests
// started together do not poll together.
func (b backoff) delay(attempt int, retryAfter *time.Time, now time.Time) time.Duration {
	d := b.max
	if attempt < 32 {
		if e := b.first << attempt; e > 0 && e < b.max {
			d = e
		}
	}
	d = d/2 + rand.N(d/2+1)
	if retryAfter != nil {
		if w := retryAfter.Sub(now); w > d {
			d = w
		}
	}
	return d
}

// await polls a resource request until it ends. It returns the last
// progress event, never nil, whose Identifier (once known) survives
// later events that leave it out, and the request's failure. When ctx
// ends first, the request is cancelled (CancelResourceRequest) and the
// error says why, wrapping the context's cause.
func (r *runtime) await(ctx context.Context, ev *cctypes.ProgressEvent) (*cctypes.ProgressEvent, error) {
	if ev == nil {
		return &cctypes.ProgressEvent{}, errors.New("cloud control answered without a progress event")
	}
	for attempt := 0; ; attempt++ {
		switch ev.OperationStatus {
		case cctypes.OperationStatusSuccess:
			return ev, nil
		case cctypes.OperationStatusFailed, cctypes.OperationStatusCancelComplete:
			return ev, failure(ev)
		}
		t := time.NewTimer(r.poll.delay(attempt, ev.RetryAfter, time.Now()))
		select {
		case <-ctx.Done():
			t.Stop()
			return r.abandon(ctx, ev)
		case <-t.C:
		}
		out, err := r.api.GetResourceRequestStatus(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: ev.RequestToken})
		switch {
		case err != nil && ctx.Err() != nil:
			return r.abandon(ctx, ev)
		case err != nil:
			return ev, fmt.Errorf("polling request %s: %w", aws.ToString(ev.RequestToken), err)
		case out.ProgressEvent == nil:
			return ev, fmt.Errorf("polling request %s: no progress event", aws.ToString(ev.RequestToken))
		}
		ev = laterEvent(ev, out.ProgressEvent)
	}
}

// abandonWait bounds how long an abandoned request is followed after
// it is cancelled.
const abandonWait = 30 * time.Second

// abandon cancels a request whose operation ended (timeout or stop), on
// a context of its own since the operation's has ended, and follows it
// briefly (abandonWait) until it ends: a create may have named its
// resource, or even finished, before the cancel took, and the caller
// records a resource whose identifier it returns (tainted) instead of
// orphaning it. The event returned is the last one seen, with the
// identifier once known; the error always says why the operation ended.
func (r *runtime) abandon(ctx context.Context, ev *cctypes.ProgressEvent) (*cctypes.ProgressEvent, error) {
	cause := r.cause(ctx)
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonWait)
	defer cancel()
	token := aws.ToString(ev.RequestToken)
	out, cancelErr := r.api.CancelResourceRequest(cctx, &cloudcontrol.CancelResourceRequestInput{RequestToken: ev.RequestToken})
	if cancelErr == nil && out.ProgressEvent != nil {
		ev = laterEvent(ev, out.ProgressEvent)
	}
	ev = r.followCancelled(cctx, ev)
	var outcome string
	switch ev.OperationStatus {
	case cctypes.OperationStatusSuccess:
		outcome = "completed before it could be cancelled"
	case cctypes.OperationStatusFailed:
		outcome = "failed: " + failure(ev).Error()
	case cctypes.OperationStatusCancelComplete:
		outcome = "was cancelled"
	default:
		outcome = fmt.Sprintf("was still %s after %s", ev.OperationStatus, abandonWait)
	}
	if cancelErr != nil {
		return ev, fmt.Errorf("%w; cancelling request %s failed: %v; it %s", cause, token, cancelErr, outcome)
	}
	return ev, fmt.Errorf("%w; request %s %s", cause, token, outcome)
}

// followCancelled polls a cancelled request until it ends or ctx does,
// and returns its last event. Polling errors end it quietly: the request
// was abandoned already, and the caller reports why.
func (r *runtime) followCancelled(ctx context.Context, ev *cctypes.ProgressEvent) *cctypes.ProgressEvent {
	for attempt := 0; ; attempt++ {
		switch ev.OperationStatus {
		case cctypes.OperationStatusSuccess, cctypes.OperationStatusFailed, cctypes.OperationStatusCancelComplete:
			return ev
		}
		// The request's RetryAfter was about its work, which the cancel
		// ended: poll at the usual pace.
		t := time.NewTimer(r.poll.delay(attempt, nil, time.Now()))
		select {
		case <-ctx.Done():
			t.Stop()
			return ev
		case <-t.C:
		}
		out, err := r.api.GetResourceRequestStatus(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: ev.RequestToken})
		if err != nil || out.ProgressEvent == nil {
			return ev
		}
		ev = laterEvent(ev, out.ProgressEvent)
	}
}

// laterEvent returns a copy of next keeping prev's identifier and request
// token where next leaves them out.
func laterEvent(prev, next *cctypes.ProgressEvent) *cctypes.ProgressEvent {
	ev := *next
	if ev.Identifier == nil {
		ev.Identifier = prev.Identifier
	}
	if ev.RequestToken == nil {
		ev.RequestToken = prev.RequestToken
	}
	return &ev
}

// cause says why an operation's context ended, nil while it has not. A
// stopped provider is named as such even when the engine cancelled the
// call's own context first.
func (r *runtime) cause(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	if r.stop.Err() != nil {
		return errStopped
	}
	return context.Cause(ctx)
}

// getModel reads a resource's properties with GetResource.
func (r *runtime) getModel(ctx context.Context, typeName, id string) (map[string]any, error) {
	props, err := r.getProperties(ctx, typeName, id)
	if err != nil {
		return nil, err
	}
	return decodeModel(props)
}

// getProperties is one GetResource call: the resource's properties as
// JSON text (nil when the answer has none).
func (r *runtime) getProperties(ctx context.Context, typeName, id string) (*string, error) {
	out, err := r.api.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: &typeName, Identifier: &id, RoleArn: r.role()})
	if err != nil {
		return nil, err
	}
	if out.ResourceDescription == nil {
		return nil, nil
	}
	return out.ResourceDescription.Properties, nil
}

// listPage is one ListResources call: the page after token (nil for the
// first).
func (r *runtime) listPage(ctx context.Context, typeName string, token *string) (*cloudcontrol.ListResourcesOutput, error) {
	return r.api.ListResources(ctx, &cloudcontrol.ListResourcesInput{
		TypeName: &typeName, NextToken: token, MaxResults: aws.Int32(listPageSize), RoleArn: r.role(),
	})
}

// readModel reads a resource's properties for a refresh: from the list
// cache when a page holds it, else with GetResource (see listCache).
func (r *runtime) readModel(ctx context.Context, t *cfnschema.ResourceType, id string) (map[string]any, error) {
	props, err := r.lists.read(ctx, r, t.TypeName, t.PluralName != "", id)
	if err != nil {
		return nil, err
	}
	return decodeModel(props)
}

// role is the RoleArn of every mutating and reading call, nil when unset.
func (r *runtime) role() *string {
	if r.roleARN == "" {
		return nil
	}
	return &r.roleARN
}
