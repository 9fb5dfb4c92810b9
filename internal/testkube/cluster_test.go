package testkube_test

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cairn-iac/cairn/internal/testkube"
)

// kube is the cluster the tests of this package share.
var kube testkube.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	if err := kube.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

var widgetGVK = schema.GroupVersionKind{Group: "testkube.cairn.dev", Version: "v1alpha1", Kind: "Widget"}

// widgetCRD is a namespaced kind with a status subresource and a schema
// that makes spec.size an integer, so the test can tell the apiserver
// validates and splits spec from status.
func widgetCRD() *apiextensionsv1.CustomResourceDefinition {
	object := func(props map[string]apiextensionsv1.JSONSchemaProps) apiextensionsv1.JSONSchemaProps {
		return apiextensionsv1.JSONSchemaProps{Type: "object", Properties: props}
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + widgetGVK.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: widgetGVK.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "widgets", Singular: "widget", Kind: widgetGVK.Kind, ListKind: widgetGVK.Kind + "List",
			},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: widgetGVK.Version, Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: ptr(object(map[string]apiextensionsv1.JSONSchemaProps{
					"spec":   object(map[string]apiextensionsv1.JSONSchemaProps{"size": {Type: "integer"}}),
					"status": object(map[string]apiextensionsv1.JSONSchemaProps{"phase": {Type: "string"}}),
				}))},
			}},
		},
	}
}

func ptr[T any](v T) *T { return &v }

// TestCustomResourceLifecycle applies a CRD (twice: create, then update)
// and takes one object of its kind through create, status update, spec
// update and delete with controller-runtime's client, checking at each
// step what a real apiserver, unlike a fake client, enforces.
func TestCustomResourceLifecycle(t *testing.T) {
	c := kube.Cluster(t)
	ctx := t.Context()
	for range 2 {
		if err := c.ApplyCRDs(ctx, []*apiextensionsv1.CustomResourceDefinition{widgetCRD()}); err != nil {
			t.Fatal(err)
		}
	}
	cl, err := client.New(c.RESTConfig(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ns := &unstructured.Unstructured{}
	ns.SetGroupVersionKind(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"})
	ns.SetName("lifecycle")
	if err := cl.Create(ctx, ns); err != nil {
		t.Fatalf("creating namespace: %v", err)
	}

	bad := widget("bad", "not a number")
	if err := cl.Create(ctx, bad); !apierrors.IsInvalid(err) {
		t.Errorf("Create with a string spec.size: error %v, want Invalid from the CRD's schema", err)
	}

	w := widget("w", int64(3))
	if err := cl.Create(ctx, w); err != nil {
		t.Fatalf("Create: %v", err)
	}
	// Through the status subresource, only status changes.
	setField(t, w, "Ready", "status", "phase")
	setField(t, w, int64(99), "spec", "size")
	if err := cl.Status().Update(ctx, w); err != nil {
		t.Fatalf("Status().Update: %v", err)
	}
	checkWidget(t, cl, "after Status().Update", int64(3), "Ready")
	// Through the main resource, only spec changes.
	setField(t, w, int64(4), "spec", "size")
	setField(t, w, "Tampered", "status", "phase")
	if err := cl.Update(ctx, w); err != nil {
		t.Fatalf("Update: %v", err)
	}
	checkWidget(t, cl, "after Update", int64(4), "Ready")

	if err := cl.Delete(ctx, w); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := cl.Get(ctx, client.ObjectKeyFromObject(w), widget("w", nil)); !apierrors.IsNotFound(err) {
		t.Errorf("Get after Delete: error %v, want NotFound", err)
	}
}

func widget(name string, size any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"size": size}}}
	u.SetGroupVersionKind(widgetGVK)
	u.SetNamespace("lifecycle")
	u.SetName(name)
	return u
}

func setField(t *testing.T, u *unstructured.Unstructured, value any, path ...string) {
	t.Helper()
	if err := unstructured.SetNestedField(u.Object, value, path...); err != nil {
		t.Fatal(err)
	}
}

// checkWidget reads widget w back and compares its size and phase.
func checkWidget(t *testing.T, cl client.Client, when string, wantSize int64, wantPhase string) {
	t.Helper()
	got := widget("w", nil)
	if err := cl.Get(t.Context(), client.ObjectKeyFromObject(got), got); err != nil {
		t.Fatalf("Get %s: %v", when, err)
	}
	size, _, _ := unstructured.NestedInt64(got.Object, "spec", "size")
	phase, _, _ := unstructured.NestedString(got.Object, "status", "phase")
	want := []any{wantSize, wantPhase}
	if diff := cmp.Diff(want, []any{size, phase}); diff != "" {
		t.Errorf("%s: [spec.size status.phase] -want +got:\n%s", when, diff)
	}
}

// TestStartStops starts a cluster of its own, reaches it through the
// kubeconfig file as another program would, and checks that the test's
// cleanup stopped the apiserver and removed its files.
func TestStartStops(t *testing.T) {
	var kubeconfig, host string
	t.Run("Running", func(t *testing.T) {
		c := testkube.Start(t)
		kubeconfig = c.Kubeconfig()
		cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		if err != nil {
			t.Fatalf("reading kubeconfig: %v", err)
		}
		host = cfg.Host
		dc, err := discovery.NewDiscoveryClientForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dc.ServerVersion()
		if err != nil {
			t.Fatalf("ServerVersion through the kubeconfig: %v", err)
		}
		if want := "v" + testkube.APIServerVersion; v.GitVersion != want {
			t.Errorf("ServerVersion: %s, want %s", v.GitVersion, want)
		}
	})
	if host == "" {
		t.Skip("no cluster started (see the Running subtest)")
	}
	if _, err := os.Stat(kubeconfig); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("kubeconfig after cleanup: %v, want it removed", err)
	}
	u, err := url.Parse(host)
	if err != nil {
		t.Fatal(err)
	}
	if conn, err := net.Dial("tcp", u.Host); err == nil {
		conn.Close()
		t.Errorf("kube-apiserver still accepts connections on %s after cleanup", u.Host)
	}
}

// BenchmarkStart measures a cluster's start-up: credentials, etcd and
// kube-apiserver until /readyz answers ok. Stopping is not timed.
func BenchmarkStart(b *testing.B) {
	if _, err := testkube.FindBinaries(); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		_, stop, err := testkube.StartMain()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := stop(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
