package plugin

import (
	"context"
	"fmt"
	"os/exec"
	"sync"
	"sync/atomic"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

// Client is one running provider process as a providers.Interface. It is
// safe for concurrent use (gRPC calls are; tfproto6's adapter is). Every
// operation goes through tfproto6's adapter; when the call itself fails
// (the process crashed, was killed or closed its connection), the
// client replaces the adapter's generic diagnostic with one naming the
// plugin, its binary and the operation.
type Client struct {
	name, path       string
	terraformVersion string
	pc               *goplugin.Client
	// cmd is the process go-plugin starts; Close kills it when asking
	// it to exit does not work (see kill).
	cmd     *exec.Cmd
	version int
	inner   providers.Interface
	// srv is the protocol layer under inner, for the RPCs the engine's
	// interface does not carry (GetMetadata).
	srv *server

	closed atomic.Bool
	// abandoned is set when a call was abandoned on a hard stop: the
	// process is then killed without asking it to exit.
	abandoned atomic.Bool
	closeOnce sync.Once
	stopOnce  sync.Once
}

var _ providers.Interface = (*Client)(nil)

// ProtocolVersion is the plugin protocol negotiated with the binary, 5 or 6.
func (c *Client) ProtocolVersion() int { return c.version }

// PID is the plugin process's id, or 0 once it is known to have exited.
func (c *Client) PID() int {
	if rc := c.pc.ReattachConfig(); rc != nil && !c.pc.Exited() {
		return rc.Pid
	}
	return 0
}

// Close implements providers.Interface: it ends the process, asking it
// to exit and killing it if it does not. Closing again does nothing; an
// operation after Close reports that the plugin was closed.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		c.kill()
	})
	return nil
}

// explain returns the diagnostics of an operation whose call failed in
// transport (err non-nil), or ds unchanged.
func (c *Client) explain(method string, err error, ds diags.Diagnostics) diags.Diagnostics {
	if err == nil {
		return ds
	}
	return diags.Diagnostics{diags.Errorf("Plugin did not respond", "%s", c.failure(method, err))}
}

// failure describes a failed call for the user: what happened to the
// plugin, which plugin (and binary), and during which operation.
func (c *Client) failure(method string, err error) string {
	who := fmt.Sprintf("The plugin %s (%s)", c.name, c.path)
	msg := status.Convert(err).Message()
	switch {
	case c.closed.Load():
		return fmt.Sprintf("%s was closed before it could run %s: %s. Cairn closes a provider only when it is done with it; this is a bug in Cairn.", who, method, msg)
	case status.Code(err) == codes.Canceled:
		return fmt.Sprintf("%s had not answered %s when Cairn was told to stop at once (a second interrupt), so the call was abandoned: what the provider did is unknown and not recorded. Check the remote objects before the next run.", who, method)
	case c.pc.Exited() || status.Code(err) == codes.Unavailable:
		return fmt.Sprintf("%s exited while running %s: %s. The provider may have crashed or been killed; its log (TF_LOG) may say why.", who, method, msg)
	default:
		return fmt.Sprintf("%s failed while running %s: %s. This is a bug in the provider.", who, method, msg)
	}
}

// GetProviderSchema implements providers.Interface. The schema was fetched
// at Launch and is cached; this makes no call.
func (c *Client) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.GetProviderSchema(ctx)
	resp.Diagnostics = c.explain("GetProviderSchema", rec.failure(), resp.Diagnostics)
	return resp
}

// StopProvider implements providers.Interface (protocol 5's Stop).
func (c *Client) StopProvider(ctx context.Context) error {
	ctx, rec := withRecord(ctx)
	err := c.inner.StopProvider(ctx)
	if ferr := rec.failure(); ferr != nil {
		return fmt.Errorf("%s", c.failure("StopProvider", ferr))
	}
	return err
}
