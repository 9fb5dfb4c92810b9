package server

import (
	"context"
	"fmt"
	"sync"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/sync/errgroup"

	"github.com/cairn-iac/cairn/internal/providers"
)

// readCounting is a provider instance that counts the ReadResource calls
// it serves, by instance.
type readCounting struct {
	providers.Interface
	id    int
	reads *sync.Map // instance id -> *int64 under mu
	mu    *sync.Mutex
}

// GetResourceIdentitySchemas and UpgradeResourceIdentity pass awscc's
// identities through: the wrapper must not hide a capability whose
// identities ReadResource still returns.
func (p *readCounting) GetResourceIdentitySchemas(ctx context.Context) providers.GetResourceIdentitySchemasResponse {
	return p.Interface.(providers.IdentityProvider).GetResourceIdentitySchemas(ctx)
}

func (p *readCounting) UpgradeResourceIdentity(ctx context.Context, r providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	return p.Interface.(providers.IdentityProvider).UpgradeResourceIdentity(ctx, r)
}

func (p *readCounting) ReadResource(ctx context.Context, r providers.ReadResourceRequest) providers.ReadResourceResponse {
	p.mu.Lock()
	n, _ := p.reads.LoadOrStore(p.id, new(int))
	*n.(*int)++
	p.mu.Unlock()
	return p.Interface.ReadResource(ctx, r)
}

// TestRefreshOneInstance: every Read of a refresh (Pulumi sends them in
// parallel, one per resource) goes to the one configured provider
// instance the server started, so whatever that instance keeps between
// calls (awscc's Cloud Control list pages) serves the whole refresh.
func TestRefreshOneInstance(t *testing.T) {
	_, p := awsccAt(t, 0)
	inner := p.Factory
	var mu sync.Mutex
	reads := &sync.Map{}
	started := 0
	p.Factory = func() (providers.Interface, error) {
		inst, err := inner()
		if err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		started++
		return &readCounting{Interface: inst, id: started, reads: reads, mu: &mu}, nil
	}
	s := newServer(t, "awscc", p, map[string]any{"region": "us-east-1"})
	ctx := context.Background()
	const n = 20
	created := make([]*pulumirpc.CreateResponse, n)
	for i := range created {
		urn := fmt.Sprintf("urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg%d", i)
		c, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: urn,
			Properties: props(t, map[string]any{"logGroupName": fmt.Sprintf("lg%d", i), "retentionInDays": 7})})
		if err != nil {
			t.Fatal(err)
		}
		created[i] = c
	}
	var g errgroup.Group
	g.SetLimit(8)
	for i, c := range created {
		g.Go(func() error {
			urn := fmt.Sprintf("urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg%d", i)
			r, err := s.Read(ctx, &pulumirpc.ReadRequest{Urn: urn, Id: c.Id, Properties: c.Properties})
			if err == nil && r.Id != c.Id {
				err = fmt.Errorf("refresh of %s: id %q", c.Id, r.Id)
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	got := map[int]int{}
	reads.Range(func(k, v any) bool { got[k.(int)] = *v.(*int); return true })
	if len(got) != 1 {
		t.Fatalf("refresh reads by provider instance %v (%d instances started); want all %d from one", got, started, n)
	}
	for _, c := range got {
		if c != n {
			t.Errorf("%d reads reached the instance, want %d", c, n)
		}
	}
}
