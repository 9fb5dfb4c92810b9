package wire

import (
	"fmt"
	"runtime/debug"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Diagnostic converts one protocol diagnostic, given as its fields (protocol
// 5 and 6 spell them alike). Only a warning is a warning: an invalid
// severity counts as an error, so a broken provider cannot make a failure
// look like success.
func Diagnostic(warning bool, summary, detail string, attr *tftypes.AttributePath) diags.Diagnostic {
	sev := diags.Error
	if warning {
		sev = diags.Warning
	}
	return diags.Diagnostic{Severity: sev, Summary: summary, Detail: detail, Path: Path(attr)}
}

// Guard runs a call into provider code, turning a panic into an error: a
// provider's bug must not take the engine down with it.
func Guard(call func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the provider panicked: %v\n\n%s", r, debug.Stack())
		}
	}()
	return call()
}

// Invoke makes a call unless encoding its request already failed,
// guarded, turning a missing response into an error too.
func Invoke[R any](c *Codec, call func() (*R, error)) (*R, error) {
	if c.Err != nil {
		return nil, c.Err
	}
	var resp *R
	err := Guard(func() error {
		var err error
		resp, err = call()
		return err
	})
	if err == nil && resp == nil {
		err = fmt.Errorf("the provider returned no response")
	}
	return resp, err
}

// CallFailed reports a failed call: an error from the transport or the
// server, an encoding failure, or a panic. These are the provider's (or
// the adapter's) bugs, not the user's.
func CallFailed(method string, err error) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Provider call failed",
		"Calling %s on the provider failed: %s. This is a bug in the provider.", method, err)}
}
