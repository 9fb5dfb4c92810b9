package command

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/reconciler"
)

// runControllerObserve lists the objects of the awscc types named where
// the AWS environment points and creates one observe-only managed
// resource per object (managementPolicies ["Observe"], the external name
// from the object's identity) in -namespace, for a running controller to
// observe.
func runControllerObserve(m *Meta, args []string) int {
	fs := newFlagSet("controller observe", m.Stderr)
	var f controllerFlags
	var namespace string
	var limit int64
	fs.StringVar(&f.kubeconfig, "kubeconfig", m.Getenv("KUBECONFIG"), "Kubeconfig file of the cluster; in-cluster configuration when empty.")
	fs.Var(&f.schemas, "schemas", "Directory of CloudFormation schemas laid over the built-in ones (repeatable).")
	fs.StringVar(&namespace, "namespace", "default", "Namespace of the managed resources created.")
	fs.Int64Var(&limit, "limit", 0, "List at most this many objects of each type (all when 0).")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() == 0 {
		return m.errorf("No resource types", "cairn controller observe takes the resource types to list (AWS::Logs::LogGroup or awscc_logs_log_group).")
	}
	p, err := m.loadAwscc(f.schemas, strings.Join(fs.Args(), ","))
	if err != nil {
		return m.errorf("Failed to load the awscc provider", "%s.", err)
	}
	lib := providers.NewLibrary(providers.Registry{awscc.Addr: p.Factory()})
	defer lib.Close()
	kinds, err := awsccKinds(lib, p, false)
	if err != nil {
		return m.errorf("Failed to build the managed-resource kinds", "%s.", err)
	}
	cfg, err := restConfig(f.kubeconfig, 10)
	if err != nil {
		return m.errorf("No cluster to connect to", "%s.", err)
	}
	scheme := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	kube, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return m.errorf("No cluster to connect to", "%s.", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// awscc itself lists (the library's instances do not pass list
	// resources through), configured from the AWS environment.
	inst, err := p.Factory()()
	if err != nil {
		return m.errorf("Failed to start the awscc provider", "%s.", err)
	}
	defer inst.Close()
	cfgVal := inst.GetProviderSchema(ctx).Provider.Block.EmptyValue()
	if ds := inst.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cfgVal}).Diagnostics; ds.HasErrors() {
		m.showDiags(ds)
		return 1
	}
	for _, k := range kinds {
		names, err := reconciler.ObserveListed(ctx, kube, k, inst, reconciler.ObserveOptions{Namespace: namespace, Limit: limit})
		if err != nil {
			return m.errorf("Failed to create observe-only resources", "%s.", err)
		}
		fmt.Fprintf(m.Stdout, "%s: %d observe-only managed resources created in %s\n", k.GVK.Kind, len(names), namespace)
		for _, n := range names {
			fmt.Fprintf(m.Stdout, "  %s\n", n)
		}
	}
	return 0
}
