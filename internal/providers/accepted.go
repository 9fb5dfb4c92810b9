package providers

import "context"

// A create can outlive the call that started it. Cloud Control, like many
// asynchronous cloud APIs, accepts a create and finishes it on its own
// time; a run that is killed, or loses the API, while it waits has made an
// object it never recorded, and the next run would make it again. An
// in-process provider that knows its remote system accepted a create says
// so through the CreateRecorder the engine puts in the call's context,
// with the private data that lets a later ReadResource find the object
// (a request token, say). The engine records the object as pending,
// durably, before the recorder returns; the provider only then waits.
//
// The recorder travels in the context because it belongs to one call,
// and the call passes through protocol adapters (terraform-plugin-go and
// the framework) that carry nothing else of the caller's. Plugin
// processes never see it: a provider run by Terraform reports an
// unfinished create the protocol's way, as an error with a partial object.

// CreateRecorder records that the create of the current call was accepted,
// with the provider's private data for the object: the engine keeps the
// planned object with that private data until the call ends. It returns
// once the record is durable, or an error when it could not be made.
type CreateRecorder func(private []byte) error

type createRecorderKey struct{}

// WithCreateRecorder returns ctx carrying rec for the ApplyResourceChange
// call made with it.
func WithCreateRecorder(ctx context.Context, rec CreateRecorder) context.Context {
	return context.WithValue(ctx, createRecorderKey{}, rec)
}

// CreateRecorderFrom returns the recorder ctx carries, or nil: the caller
// is not recording accepted creates.
func CreateRecorderFrom(ctx context.Context) CreateRecorder {
	rec, _ := ctx.Value(createRecorderKey{}).(CreateRecorder)
	return rec
}
