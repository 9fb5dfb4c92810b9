package reconciler

import (
	"context"
	"regexp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// Cloud APIs give every request an identifier and SDKs and providers
// write it into their error text ("RequestID: 4f1c…", "request id:
// 4f1c…", "update request 4f1c… failed"). The same failure then reads
// differently on every attempt, so the Synced condition would change on
// every reconcile: each change is a status write, an event that is not
// aggregated, and churn in etcd for nothing the user can act on.
var (
	// labelledRequestID is an identifier labelled as the request's, with
	// the separator before it: AWS SDK v2's ", RequestID: …", v1's
	// ", request id: …", a JSON field "requestId": "…", a header
	// x-amzn-RequestId. The value must hold a digit, as identifiers do:
	// "request token: expired" is a message, not an identifier.
	labelledRequestID = regexp.MustCompile(`(?i)[,;]?[ \t]*"?\b(?:x-amzn?-)?request[ _-]?(?:id|token)\b"?[ \t]*[:=][ \t]*"?[\w.+/=-]*[0-9][\w.+/=-]*"?`)
	// bareRequestToken is the word request followed by a UUID or a long
	// hex token (Cloud Control's request tokens: "update request … failed").
	bareRequestToken = regexp.MustCompile(`(?i)\b(request)[ \t]+(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})\b`)
)

// withoutRequestIDs returns msg without the identifiers of the requests
// it mentions. Other identifiers (a resource's id, an ARN) stay: they are
// the same on every attempt and say what failed.
func withoutRequestIDs(msg string) string {
	msg = labelledRequestID.ReplaceAllString(msg, "")
	return bareRequestToken.ReplaceAllString(msg, "$1")
}

// stableError is an error whose message leaves out the request
// identifiers of the error it wraps, so that identical failures read the
// same; errors.Is and errors.As still see the original.
type stableError struct {
	msg string
	err error
}

func (e *stableError) Error() string { return e.msg }
func (e *stableError) Unwrap() error { return e.err }

// stableConnector is an ExternalConnector whose errors, and whose
// clients' errors, read the same on every attempt of the same failure:
// crossplane-runtime puts them in the Synced condition and in events.
// The full text, request identifiers included, goes to the debug log for
// whoever needs to trace a request with the cloud's support.
type stableConnector struct {
	next managed.ExternalConnector
	log  logging.Logger
}

var _ managed.ExternalConnector = stableConnector{}

// Connect implements managed.ExternalConnector.
func (c stableConnector) Connect(ctx context.Context, mg resource.Managed) (managed.ExternalClient, error) {
	ec, err := c.next.Connect(ctx, mg)
	if err != nil {
		return nil, stabilise(c.log, mg, "connect", err)
	}
	return stableClient{next: ec, log: c.log}, nil
}

// stableClient is stableConnector's ExternalClient.
type stableClient struct {
	next managed.ExternalClient
	log  logging.Logger
}

var _ managed.ExternalClient = stableClient{}

func (c stableClient) Observe(ctx context.Context, mg resource.Managed) (managed.ExternalObservation, error) {
	o, err := c.next.Observe(ctx, mg)
	return o, stabilise(c.log, mg, "observe", err)
}

func (c stableClient) Create(ctx context.Context, mg resource.Managed) (managed.ExternalCreation, error) {
	o, err := c.next.Create(ctx, mg)
	return o, stabilise(c.log, mg, "create", err)
}

func (c stableClient) Update(ctx context.Context, mg resource.Managed) (managed.ExternalUpdate, error) {
	o, err := c.next.Update(ctx, mg)
	return o, stabilise(c.log, mg, "update", err)
}

func (c stableClient) Delete(ctx context.Context, mg resource.Managed) (managed.ExternalDelete, error) {
	o, err := c.next.Delete(ctx, mg)
	return o, stabilise(c.log, mg, "delete", err)
}

func (c stableClient) Disconnect(ctx context.Context) error { return c.next.Disconnect(ctx) }

// stabilise returns err with its request identifiers left out of its
// message (err itself when it names none), logging the full text at
// debug level.
func stabilise(log logging.Logger, mg resource.Managed, op string, err error) error {
	if err == nil {
		return nil
	}
	full := err.Error()
	msg := withoutRequestIDs(full)
	if msg == full {
		return err
	}
	log.Debug("External operation failed", "operation", op,
		"namespace", mg.GetNamespace(), "name", mg.GetName(), "error", full)
	return &stableError{msg: msg, err: err}
}
