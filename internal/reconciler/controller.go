package reconciler

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	xperrors "github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpunstructured "github.com/crossplane/crossplane-runtime/v2/pkg/resource/unstructured"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
)

// Options configure the controllers of one provider's kinds. The flags of
// `cairn controller` set them, named as Crossplane providers name theirs.
type Options struct {
	// ProviderName is the provider's local name ("awscc"): its
	// ProviderConfig kinds live in group <name>.m.cairn-iac.io.
	ProviderName string
	// Providers starts, configures and keeps the schema of the provider
	// Provider, whose kinds these are: one library for the process, as
	// the engine keeps one per run.
	Providers *providers.Library
	Provider  addrs.Provider
	// PollInterval is how often an up-to-date resource is observed again
	// (drift correction); PollJitter spreads the polls.
	PollInterval, PollJitter time.Duration
	// MaxReconcileRate bounds reconciles per second across all kinds,
	// and the concurrent reconciles of each kind.
	MaxReconcileRate int
	// Timeout bounds one reconcile (a synchronous create or update
	// included).
	Timeout time.Duration
	// CreationGracePeriod is how long after a create an observation that
	// finds nothing is not believed (eventually consistent APIs);
	// crossplane-runtime's 30 s when negative.
	CreationGracePeriod time.Duration
	Logger              logging.Logger
}

// Controllers is what Setup started: the workspaces of every managed
// resource and the configured providers, for Close.
type Controllers struct {
	Workspaces *Workspaces
	// Stats counts the external client's calls, for benchmarks and logs.
	Stats     *Stats
	providers *providerInstances
}

// Stats counts external operations across every kind.
type Stats struct {
	Observations, Creates, Updates, Deletes atomic.Uint64
	// Unchanged counts the observations that found the object and the
	// desired state as the last full observation left them, and so
	// reported the resource up to date without planning.
	Unchanged atomic.Uint64
	// Planned counts the observations that planned the desired
	// configuration against the object (the full observation).
	Planned atomic.Uint64
}

// Close closes the configured providers.
func (c *Controllers) Close() { c.providers.Close() }

// Setup registers one controller per kind with mgr, each running
// crossplane-runtime's managed reconciler with the external client of
// this package. mgr's scheme learns every kind as a Managed. The provider
// instances configured for ProviderConfigs are stopped when ctx ends and
// released by Close.
func Setup(ctx context.Context, mgr manager.Manager, kinds []*Kind, o Options) (*Controllers, error) {
	if o.Logger == nil {
		o.Logger = logging.NewNopLogger()
	}
	if o.MaxReconcileRate < 1 {
		o.MaxReconcileRate = 10
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 10 * time.Minute
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Minute
	}
	resp, ds := o.Providers.Schema(ctx, o.Provider)
	if ds.HasErrors() {
		return nil, fmt.Errorf("provider %s: %w", o.Provider.ForDisplay(), ds.Err())
	}
	cs := &Controllers{
		Workspaces: &Workspaces{},
		Stats:      &Stats{},
		providers:  &providerInstances{name: o.ProviderName, lib: o.Providers, addr: o.Provider, schema: resp.Provider, ctx: ctx},
	}
	cached, err := cachedClient(mgr)
	if err != nil {
		return nil, err
	}
	global := ratelimiter.NewGlobal(o.MaxReconcileRate)
	for _, k := range kinds {
		if err := setupKind(mgr, cached, k, cs, o, global); err != nil {
			return nil, fmt.Errorf("%s: %w", k.GVK.Kind, err)
		}
	}
	return cs, nil
}

// cachedClient is mgr's client with unstructured objects, too, read from
// the informer cache. controller-runtime reads them from the API server
// by default: every reconcile then cost a GET of the managed resource and
// one of its ProviderConfig, decoded from JSON, which at 10,000 resources
// was a tenth of the controller's CPU and as many requests to the API
// server as polls. Crossplane's reconciler works from a cache: a stale
// read ends in a conflict on its next write, and a requeue.
func cachedClient(mgr manager.Manager) (client.Client, error) {
	c, err := client.New(mgr.GetConfig(), client.Options{
		HTTPClient: mgr.GetHTTPClient(), Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper(),
		Cache: &client.CacheOptions{Reader: mgr.GetCache(), Unstructured: true},
	})
	if err != nil {
		return nil, fmt.Errorf("the cached client: %w", err)
	}
	return c, nil
}

func setupKind(mgr manager.Manager, cached client.Client, k *Kind, cs *Controllers, o Options, global ratelimiter.RateLimiter) error {
	mgr.GetScheme().AddKnownTypeWithName(k.GVK, &Managed{})
	km := &kindManager{Manager: mgr, client: &kindClient{Client: xpunstructured.NewClient(cached), k: k}}
	name := managed.ControllerName(strings.ToLower(k.GVK.GroupKind().String()))
	log := o.Logger.WithValues("controller", name)
	conn := &connector{kind: k, kube: km.client, live: mgr.GetAPIReader(), workspaces: cs.Workspaces, providers: cs.providers, stats: cs.Stats}
	opts := []managed.ReconcilerOption{
		managed.WithExternalConnector(stableConnector{next: conn, log: log}),
		managed.WithPollInterval(o.PollInterval),
		managed.WithTimeout(o.Timeout),
		managed.WithLogger(log),
		managed.WithRecorder(event.NewAPIRecorder(mgr.GetEventRecorderFor(name))),
		managed.WithManagementPolicies(),
		// A kind named by metadata.name finds what a create in flight made
		// before a restart, so it may safely create again; any other kind
		// stops at an unfinished create (crossplane-runtime's rule).
		managed.WithDeterministicExternalName(k.ExternalName.FromName),
	}
	if o.CreationGracePeriod >= 0 {
		opts = append(opts, managed.WithCreationGracePeriod(o.CreationGracePeriod))
	}
	if o.PollJitter > 0 {
		opts = append(opts, managed.WithPollJitterHook(o.PollJitter))
	}
	if !k.ExternalName.FromName {
		// The default initializer would name the resource after the
		// object; the provider names this kind.
		opts = append(opts, managed.WithInitializers())
	}
	r := managed.NewReconciler(km, resource.ManagedKind(k.GVK), opts...)
	return builder.ControllerManagedBy(mgr).
		Named(name).
		// A failed reconcile is retried after 1 s, 2 s, 4 s … up to 60 s
		// (crossplane-runtime's controller rate limiter).
		WithOptions(controller.Options{MaxConcurrentReconciles: o.MaxReconcileRate, RateLimiter: ratelimiter.NewController()}).
		// The watch is of plain unstructured objects: every read goes
		// through crossplane-runtime's wrapper client as one, so the cache
		// must hold them so, not as Managed.
		For(&NewManaged(k.GVK.GroupVersion().String(), k.GVK.Kind).Unstructured).
		// Only a change to what the user asks for (spec, labels,
		// annotations) wakes the reconciler, as in upjet and provider-aws:
		// the reconciler's own status writes do not, or every failure
		// would be retried at once, whatever the backoff says. An
		// asynchronous operation wakes it with an annotation.
		WithEventFilter(resource.DesiredStateChanged()).
		Complete(ratelimiter.NewReconciler(name, xperrors.WithSilentRequeueOnConflict(r), global))
}

// kindManager is mgr as one kind's reconciler sees it: its client knows
// the kind (see kindClient).
type kindManager struct {
	manager.Manager
	client client.Client
}

func (m *kindManager) GetClient() client.Client { return m.client }

// kindClient gives a Managed without a kind the controller's kind before
// reading it: crossplane-runtime makes its objects with the scheme, which
// cannot say which of the kinds sharing the Managed type it wants.
type kindClient struct {
	client.Client
	k *Kind
}

func (c *kindClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if m, ok := obj.(*Managed); ok && m.GetKind() == "" {
		m.SetGroupVersionKind(c.k.GVK)
	}
	return c.Client.Get(ctx, key, obj, opts...)
}
