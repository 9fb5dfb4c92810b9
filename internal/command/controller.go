package command

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/crds"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/reconciler"
)

// controllerFlags are `cairn controller`'s settings, named as Crossplane
// providers name theirs.
type controllerFlags struct {
	kubeconfig       string
	schemas          stringList
	types            string
	async            bool
	poll, pollJitter time.Duration
	maxReconcileRate int
	timeout          time.Duration
	gracePeriod      time.Duration
	leaderElection   bool
	metricsAddr      string
	debug            bool
}

// runController runs the Crossplane-style controller of awscc's resource
// types: one managed-resource controller per kind, in process, until
// interrupted.
func runController(m *Meta, args []string) int {
	fs := newFlagSet("controller", m.Stderr)
	var f controllerFlags
	fs.StringVar(&f.kubeconfig, "kubeconfig", m.Getenv("KUBECONFIG"), "Kubeconfig file of the cluster; in-cluster configuration when empty.")
	fs.Var(&f.schemas, "schemas", "Directory of CloudFormation schemas laid over the built-in ones (repeatable).")
	fs.StringVar(&f.types, "types", m.Getenv("CAIRN_AWSCC_TYPES"), "Comma-separated types to serve (AWS::Logs::LogGroup or awscc_logs_log_group); all by default.")
	fs.BoolVar(&f.async, "async", false, "Run creates, updates and deletes in the background, one at a time per resource.")
	fs.DurationVar(&f.poll, "poll", 10*time.Minute, "How often an up-to-date resource is observed again (drift correction).")
	fs.DurationVar(&f.pollJitter, "poll-jitter", 0, "Random spread added to each poll.")
	fs.IntVar(&f.maxReconcileRate, "max-reconcile-rate", 10, "Reconciles per second across all kinds, and concurrent reconciles per kind; the Kubernetes client may make five times as many requests a second.")
	fs.DurationVar(&f.timeout, "timeout", 20*time.Minute, "Longest one reconcile (a synchronous create included) may take.")
	fs.DurationVar(&f.gracePeriod, "creation-grace-period", 30*time.Second, "How long after a create not finding the resource is not believed (eventually consistent APIs).")
	fs.BoolVar(&f.leaderElection, "leader-election", false, "Use leader election, so only one of several replicas reconciles.")
	fs.StringVar(&f.metricsAddr, "metrics-bind-address", "0", "Address of the Prometheus metrics endpoint; 0 turns it off.")
	fs.BoolVar(&f.debug, "debug", false, "Log every reconcile.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() != 0 {
		return m.errorf("Unexpected argument", "cairn controller takes no arguments; it serves the awscc resource types (-types narrows them).")
	}
	p, err := m.loadAwscc(f.schemas, f.types)
	if err != nil {
		return m.errorf("Failed to load the awscc provider", "%s.", err)
	}
	// A poll reads every managed resource of a kind once: one walk of
	// ListResources pages per kind and poll answers them all, and the
	// next poll starts a fresh walk, so drift is seen a poll later at
	// most.
	p = p.WithListCacheTTL(f.poll)
	// One library for the process: the schema is read once, and the
	// instances ProviderConfigs configure live and end with it.
	lib := providers.NewLibrary(providers.Registry{awscc.Addr: p.Factory()})
	defer lib.Close()
	kinds, err := awsccKinds(lib, p, f.async)
	if err != nil {
		return m.errorf("Failed to build the managed-resource kinds", "%s.", err)
	}
	cfg, err := restConfig(f.kubeconfig, f.maxReconcileRate)
	if err != nil {
		return m.errorf("No cluster to connect to", "%s.", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runManager(ctx, m, cfg, kinds, lib, f); err != nil {
		return m.errorf("Controller failed", "%s.", err)
	}
	return 0
}

// loadAwscc loads the awscc provider over the built-in schemas (with
// CAIRN_AWSCC_SCHEMAS and dirs laid over them), narrowed to types.
func (m *Meta) loadAwscc(dirs []string, types string) (*awscc.Provider, error) {
	return awscc.Load(m.awsccSources(dirs), cfnsources.TypeFilter(types))
}

// awsccKinds is one managed kind per awscc resource type, named by
// internal/crds; a type whose identifier is an argument the configuration
// sets is named by metadata.name (NameAsIdentifier), any other by the
// identifier AWS gives it.
func awsccKinds(lib *providers.Library, p *awscc.Provider, async bool) ([]*reconciler.Kind, error) {
	schema, ds := lib.Schema(context.Background(), awscc.Addr)
	if ds.HasErrors() {
		return nil, ds.Err()
	}
	names := make([]string, 0, len(schema.ResourceTypes))
	for n := range schema.ResourceTypes {
		names = append(names, n)
	}
	sort.Strings(names)
	var kinds []*reconciler.Kind
	for _, n := range names {
		ck, err := crds.KindForServed("awscc", n)
		if err != nil {
			return nil, err
		}
		// A type whose CRD cannot be generated cannot have objects either
		// (crd generate reports why); the codec would not read them.
		if _, err := crds.Generate(ck, schema.ResourceTypes[n]); err != nil {
			continue
		}
		k := &reconciler.Kind{GVK: ck.GroupVersionKind(), Provider: awscc.Addr, TypeName: n,
			Schema: schema.ResourceTypes[n], ExternalName: reconciler.IdentifierFromProvider(), Async: async}
		if attr, ok := p.IdentifierAttribute(n); ok {
			k.ExternalName = reconciler.NameAsIdentifier(attr)
		}
		kinds = append(kinds, k)
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("no resource type to serve")
	}
	return kinds, nil
}

// restConfig reads a kubeconfig file, or the in-cluster configuration,
// with the client's rate derived from the reconcile rate as Crossplane
// providers derive it (5 requests a second per reconcile, bursts of 10):
// left unset, client-go allows 5 requests a second, and every create
// writes the object four or five times and every poll writes its status,
// so the controller, not the cloud, would bound both.
func restConfig(kubeconfig string, reconcileRate int) (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	if kubeconfig != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", kubeconfig)
	} else {
		cfg, err = rest.InClusterConfig()
	}
	if err != nil {
		return nil, err
	}
	if reconcileRate < 1 {
		reconcileRate = 10 // reconciler.Setup's default
	}
	if cfg.QPS == 0 && cfg.RateLimiter == nil {
		cfg = ratelimiter.LimitRESTConfig(cfg, reconcileRate)
	}
	return cfg, nil
}

// runManager sets up the controllers and runs them until ctx ends.
func runManager(ctx context.Context, m *Meta, cfg *rest.Config, kinds []*reconciler.Kind, lib *providers.Library, f controllerFlags) error {
	log := controllerLogger(m, f.debug)
	ctrl.SetLogger(log)
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return err
	}
	mgr, err := manager.New(cfg, manager.Options{
		Scheme: scheme,
		// Nothing reads managedFields; without them every cached object
		// is about half the size (the cache holds every managed
		// resource, the controller's largest memory).
		Cache:                  cache.Options{DefaultTransform: cache.TransformStripManagedFields()},
		Metrics:                metricsserver.Options{BindAddress: f.metricsAddr},
		HealthProbeBindAddress: "0",
		LeaderElection:         f.leaderElection,
		LeaderElectionID:       "cairn-controller-awscc",
	})
	if err != nil {
		return err
	}
	cs, err := reconciler.Setup(ctx, mgr, kinds, reconciler.Options{
		ProviderName: "awscc", Providers: lib, Provider: awscc.Addr,
		PollInterval: f.poll, PollJitter: f.pollJitter, MaxReconcileRate: f.maxReconcileRate,
		Timeout: f.timeout, CreationGracePeriod: f.gracePeriod, Logger: logging.NewLogrLogger(log),
	})
	if err != nil {
		return err
	}
	defer cs.Close()
	fmt.Fprintf(m.Stderr, "cairn controller: reconciling %d awscc kinds\n", len(kinds))
	return mgr.Start(ctx)
}

// controllerLogger logs to stderr: errors and reconcile outcomes, every
// reconcile with debug.
func controllerLogger(m *Meta, debug bool) logr.Logger {
	verbosity := 0
	if debug {
		verbosity = 1
	}
	return funcr.New(func(prefix, args string) {
		fmt.Fprintln(m.Stderr, strings.TrimSpace(prefix+" "+args))
	}, funcr.Options{Verbosity: verbosity})
}
