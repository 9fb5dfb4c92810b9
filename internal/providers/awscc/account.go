package awscc

import (
	"context"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// accountLookupTimeout bounds the one GetCallerIdentity call a runtime
// makes: an identity without its account is better than a stalled read.
const accountLookupTimeout = 10 * time.Second

// accountSource learns the runtime's AWS account once, the first time an
// identity needs it (GetCallerIdentity, as HashiCorp's awscc asks STS).
// A lookup that fails is not repeated: identities then carry no account.
type accountSource struct {
	once   sync.Once
	lookup func(context.Context) (string, error)
	id     string
}

// newAccountSource asks STS with the runtime's AWS configuration, at the
// endpoint the settings name; without one, at the Cloud Control endpoint
// when that is set (Cairn's endpoint answers GetCallerIdentity too).
func newAccountSource(cfg aws.Config, s settings) *accountSource {
	endpoint := s.STSEndpoint
	if endpoint == "" {
		endpoint = s.CloudControlEndpoint
	}
	client := sts.NewFromConfig(cfg, func(o *sts.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
		// One attempt: a lookup that fails leaves the account out rather
		// than holding up the read that asked.
		o.RetryMaxAttempts = 1
	})
	return &accountSource{lookup: func(ctx context.Context) (string, error) {
		out, err := client.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		if err != nil {
			return "", err
		}
		return aws.ToString(out.Account), nil
	}}
}

// accountID returns the runtime's account, "" when it is not known. The
// lookup runs apart from ctx's cancellation, so that a read cancelled
// while it waits does not leave every later identity without an account.
func (rt *runtime) accountID(ctx context.Context) string {
	a := rt.accounts
	if a == nil {
		return ""
	}
	a.once.Do(func() {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), accountLookupTimeout)
		defer cancel()
		if id, err := a.lookup(lctx); err == nil {
			a.id = id
		}
	})
	return a.id
}
