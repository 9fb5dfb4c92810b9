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
		stopHard = context.AfterFunc(hard, func() {
			c.abandoned.Store(true)
			cancel()
		})
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

// shutdownTimeout bounds how long ending a plugin waits for it to exit
// when asked. go-plugin's Kill asks over gRPC (Shutdown) with no
// deadline, then gives the process two seconds; a process that is
// stopped (SIGSTOP) or wedged never answers, and Cairn must not wait on
// it forever.
const shutdownTimeout = 2 * time.Second

// kill ends the plugin process and returns when it is gone. It asks the
// process to exit (go-plugin's Kill, which kills it after a grace
// period), for at most shutdownTimeout; then, or at once when a call to
// it was abandoned on a hard stop (a second Ctrl-C: the plugin ignored
// the first and is not waited on again), the process is killed outright,
// which also ends the wait inside go-plugin's Kill.
func (c *Client) kill() {
	if c.abandoned.Load() {
		c.killProcess()
	}
	done := make(chan struct{})
	go func() {
		c.pc.Kill()
		close(done)
	}()
	t := time.NewTimer(shutdownTimeout)
	defer t.Stop()
	select {
	case <-done:
		return
	case <-t.C:
	}
	c.killProcess()
	<-done
}

// killProcess sends the plugin process SIGKILL (which ends a stopped
// process too); go-plugin reaps it.
func (c *Client) killProcess() {
	if p := c.cmd.Process; p != nil {
		_ = p.Kill()
	}
}
