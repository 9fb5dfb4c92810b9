package reconciler

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/crds"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/testkube"
)

// The tests and benchmarks in this file's company run the controller in
// process against a real kube-apiserver (internal/testkube) and Cairn's
// Cloud Control endpoint, with awscc's LogGroup as the kind.

// startEndpoint starts a Cloud Control endpoint logging to log (nil
// discards) and points the AWS SDK at it through the environment, which
// the ClusterProviderConfig from providerConfig reads.
func startEndpoint(tb testing.TB, log *slog.Logger) *ccendpoint.Endpoint {
	tb.Helper()
	ep, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: tb.TempDir(), Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = ep.Close() })
	for k, v := range map[string]string{"AWS_ENDPOINT_URL": ep.URL, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"} {
		tb.Setenv(k, v)
	}
	return ep
}

// liveController is a controller of one kind set up on a real cluster:
// the kind's and the ProviderConfig CRDs applied, and a client of the
// cluster. It reconciles once start is called.
type liveController struct {
	mgr  manager.Manager
	kube client.Client
	cs   *Controllers
}

// newLiveController sets up the controllers of kind on cluster with o
// (ProviderName, Providers and Provider are filled in from p).
func newLiveController(tb testing.TB, cluster *testkube.Cluster, p *awscc.Provider, kind *Kind, o Options) *liveController {
	tb.Helper()
	ctx := context.Background()
	ck, _ := crds.KindFor("awscc", kind.TypeName)
	crd, err := crds.Generate(ck, kind.Schema)
	if err != nil {
		tb.Fatal(err)
	}
	inst, _ := p.Factory()()
	cfgSchema := inst.GetProviderSchema(ctx).Provider
	_ = inst.Close()
	pcs, err := crds.ProviderConfigCRDs("awscc", cfgSchema)
	if err != nil {
		tb.Fatal(err)
	}
	if err := cluster.ApplyCRDs(ctx, append(pcs, crd)); err != nil {
		tb.Fatal(err)
	}
	scheme := k8sruntime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	cfg := cluster.RESTConfig()
	cfg.QPS, cfg.Burst = 500, 1000
	// Tests start a manager each in one process: the controllers'
	// names repeat.
	skip := true
	mgr, err := manager.New(cfg, manager.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		Controller: config.Controller{SkipNameValidation: &skip},
		// As cairn controller sets it.
		Cache: cache.Options{DefaultTransform: cache.TransformStripManagedFields()}})
	if err != nil {
		tb.Fatal(err)
	}
	lib := providers.NewLibrary(providers.Registry{awscc.Addr: p.Factory()})
	tb.Cleanup(func() { _ = lib.Close() })
	o.ProviderName, o.Providers, o.Provider = "awscc", lib, awscc.Addr
	cs, err := Setup(ctx, mgr, []*Kind{kind}, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(cs.Close)
	kube, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		tb.Fatal(err)
	}
	return &liveController{mgr: mgr, kube: kube, cs: cs}
}

// start runs the manager until ctx ends.
func (lc *liveController) start(ctx context.Context) {
	go func() { _ = lc.mgr.Start(ctx) }()
}

func logGroupKind(tb testing.TB) (*awscc.Provider, *Kind) {
	tb.Helper()
	dir := os.Getenv("CAIRN_CFN_SCHEMAS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "cfn-schemas")
	}
	file := filepath.Join(dir, "AWS_Logs_LogGroup.json")
	c, ds := cfnschema.LoadFiles([]string{file})
	p, err := awscc.NewFromCatalog(c, ds, file)
	if err != nil {
		tb.Skip(err)
	}
	inst, _ := p.Factory()()
	schema := inst.GetProviderSchema(context.Background()).ResourceTypes["awscc_logs_log_group"]
	ck, _ := crds.KindFor("awscc", "awscc_logs_log_group")
	return p, &Kind{GVK: ck.GroupVersionKind(), Provider: awscc.Addr, TypeName: "awscc_logs_log_group",
		Schema: schema, ExternalName: NameAsIdentifier("log_group_name")}
}

func providerConfig() *unstructured.Unstructured {
	_, cluster := crds.ProviderConfigKinds("awscc")
	pc := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{
		"configuration": map[string]any{"region": "us-east-1"}, "credentials": map[string]any{"source": "Environment"}}}}
	pc.SetGroupVersionKind(cluster.GroupVersionKind())
	pc.SetName("default")
	return pc
}

func namespace(name string) *unstructured.Unstructured {
	ns := &unstructured.Unstructured{Object: map[string]any{}}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName(name)
	return ns
}

func mustCreate(tb testing.TB, kube client.Client, objs ...client.Object) {
	tb.Helper()
	for _, o := range objs {
		if err := kube.Create(context.Background(), o); err != nil {
			tb.Fatal(err)
		}
	}
}
