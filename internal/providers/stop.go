package providers

import "context"

// Stopping a run has two strengths, as in Terraform. The context passed
// to an operation is cancelled on the first interrupt: the engine starts
// nothing new, and a provider should finish or abandon what it is doing
// and answer (a plugin client asks the plugin to, with StopProvider) so
// that whatever it did is still recorded. A second interrupt is a hard
// stop: calls still waiting for an answer are abandoned.

type hardStopKey struct{}

// WithHardStop returns ctx carrying hard, a context cancelled on a hard
// stop.
func WithHardStop(ctx, hard context.Context) context.Context {
	return context.WithValue(ctx, hardStopKey{}, hard)
}

// HardStop returns the hard-stop context ctx carries, or nil.
func HardStop(ctx context.Context) context.Context {
	h, _ := ctx.Value(hardStopKey{}).(context.Context)
	return h
}
