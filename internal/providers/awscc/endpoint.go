package awscc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/smithy-go/middleware"
)

// A configured endpoint (the provider block's endpoints.cloudcontrolapi,
// AWS_ENDPOINT_URL and the like) that refuses connections is almost
// always one that is not running: a local `cairn cloudcontrol serve`, a
// mistyped port. The SDK's retryer would try such a call 26 times with
// backoff, over three minutes, before saying anything. Against a
// configured endpoint a connection error is retried a few times quickly
// (enough to ride out an endpoint restarting) and then reported as one
// error naming the endpoint. AWS's own endpoints keep the SDK's retries.
const (
	// endpointConnectTries is how many times a call is sent to a
	// configured endpoint that cannot be reached.
	endpointConnectTries = 5
	// endpointRetryDelay is the first wait between those tries; it
	// doubles, so the whole run takes 1.5 s.
	endpointRetryDelay = 100 * time.Millisecond
)

// configuredEndpoint is a Cloud Control endpoint that is not AWS's, and
// where its URL came from.
type configuredEndpoint struct {
	URL string
	// Source names the setting, for the error: the provider block's
	// endpoints.cloudcontrolapi, AWS_ENDPOINT_URL, ...
	Source string
}

// loopback reports whether the endpoint is on this machine.
func (e configuredEndpoint) loopback() bool {
	u, err := url.Parse(e.URL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// unreachableEndpointError is a call that never reached a configured
// endpoint: every try failed to connect or lost its connection.
type unreachableEndpointError struct {
	Endpoint configuredEndpoint
	Err      error
}

func (e *unreachableEndpointError) Error() string {
	// The network's own words (dial tcp ...: connection refused), not
	// the SDK's layers of wrapping around them.
	cause := e.Err
	var op *net.OpError
	var ue *url.Error
	switch {
	case errors.As(cause, &op):
		cause = op
	case errors.As(cause, &ue):
		cause = ue
	}
	msg := fmt.Sprintf("cannot reach the Cloud Control endpoint %s (set by %s): %v", e.Endpoint.URL, e.Endpoint.Source, cause)
	if e.Endpoint.loopback() {
		u, _ := url.Parse(e.Endpoint.URL)
		return msg + fmt.Sprintf(". Nothing answers there: start one with \"cairn cloudcontrol serve -addr %s\", or point %s elsewhere.", u.Host, e.Endpoint.Source)
	}
	return msg + ". Check that the endpoint runs and that " + e.Endpoint.Source + " names it."
}

func (e *unreachableEndpointError) Unwrap() error { return e.Err }

// isConnectionError reports whether err is a call that got no HTTP
// answer: the connection was refused, lost or never made. The SDK's
// transport marks those; a cancelled context is the caller's doing.
func isConnectionError(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var conn interface{ ConnectionError() bool }
	return errors.As(err, &conn) && conn.ConnectionError()
}

// configuredEndpointOf returns the endpoint the client options o resolved
// to, or false for AWS's own. cfg holds the sources the SDK resolved the
// base endpoint from; blockURL is the provider block's.
func configuredEndpointOf(o *cloudcontrol.Options, cfg aws.Config, blockURL string) (configuredEndpoint, bool) {
	if o.BaseEndpoint == nil || *o.BaseEndpoint == "" {
		return configuredEndpoint{}, false
	}
	return configuredEndpoint{URL: *o.BaseEndpoint, Source: endpointSource(cfg, blockURL)}, true
}

// endpointSource names the setting a base endpoint came from, in the
// SDK's order: the provider block, then the environment (the
// service-specific variable first), then the shared configuration.
func endpointSource(cfg aws.Config, blockURL string) string {
	if blockURL != "" {
		return "endpoints.cloudcontrolapi in the provider block"
	}
	ctx := context.Background()
	for _, src := range cfg.ConfigSources {
		switch c := src.(type) {
		case config.EnvConfig:
			if _, ok, _ := c.GetServiceBaseEndpoint(ctx, cloudcontrol.ServiceID); ok {
				return "AWS_ENDPOINT_URL_CLOUDCONTROL"
			}
			if c.BaseEndpoint != "" {
				return "AWS_ENDPOINT_URL"
			}
		case config.SharedConfig:
			if _, ok, _ := c.GetServiceBaseEndpoint(ctx, cloudcontrol.ServiceID); ok {
				return fmt.Sprintf("the cloudcontrol endpoint_url of profile %q in the shared configuration", c.Profile)
			}
			if c.BaseEndpoint != "" {
				return fmt.Sprintf("endpoint_url of profile %q in the shared configuration", c.Profile)
			}
		}
	}
	return "the AWS configuration"
}

// failFast makes the client options o give up quickly on a configured
// endpoint that cannot be reached, and report it as an
// unreachableEndpointError.
func (e configuredEndpoint) failFast(o *cloudcontrol.Options) {
	if r, ok := o.Retryer.(aws.RetryerV2); ok {
		o.Retryer = connectRetryer{RetryerV2: r}
	}
	o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
		return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("CairnUnreachableEndpoint",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleInitialize(ctx, in)
				if isConnectionError(err) {
					err = &unreachableEndpointError{Endpoint: e, Err: err}
				}
				return out, md, err
			}), middleware.Before)
	})
}

// connectRetryer is the SDK's retryer with connection errors retried
// endpointConnectTries times at short, doubling intervals; every other
// error keeps the SDK's rules (throttling waits as long as it did).
type connectRetryer struct {
	aws.RetryerV2
}

// RetryDelay stops a connection error's retries after the last try by
// returning it, which the SDK's retry middleware hands back as the call's
// error.
func (r connectRetryer) RetryDelay(attempt int, err error) (time.Duration, error) {
	if !isConnectionError(err) {
		return r.RetryerV2.RetryDelay(attempt, err)
	}
	if attempt >= endpointConnectTries {
		return 0, err
	}
	return endpointRetryDelay << (attempt - 1), nil
}
