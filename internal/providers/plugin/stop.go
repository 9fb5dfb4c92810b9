package plugin

import (
	"context"
	"time"

	"github.com/cairn-iac/cairn/internal/providers"
)

// stopTimeout bounds the StopProvider call an interrupt sends: a plugin
// that does not even answer that is left to the hard stop.
const stopTimeout = 10 * time.Second

// begin prepares one operation's call. The call's context is not
// cancelled with ctx: a cancelled ctx (the user's first interrupt) sends
// the plugin StopProvider, once per process, and the call goes on until
// the plugin answers, so whatever the provider did is still reported and
// recorded, as Terraform does. Only the hard stop ctx may carry (see
// providers.WithHardStop) abandons the call. end must be called when the
// operation returns.
func (c *Client) begin(ctx context.Context) (context.Context, *record, func()) {
	callCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stopHard := func() bool { return false }
	if hard := providers.HardStop(ctx); hard != nil {
		stopHard = context.AfterFunc(hard, cancel)
	}
	stopGraceful := context.AfterFunc(ctx, c.stop)
	callCtx, rec := withRecord(callCtx)
	return callCtx, rec, func() {
		stopGraceful()
		stopHard()
		cancel()
	}
}

// stop asks the plugin, once, to stop what it is doing (protocol 5's
// Stop, 6's StopProvider): terraform-plugin-go cancels the contexts of
// the requests in flight, and providers return from them.
func (c *Client) stop() {
	c.stopOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		defer cancel()
		_ = c.inner.StopProvider(ctx)
	})
}
