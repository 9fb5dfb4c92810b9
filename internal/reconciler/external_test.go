package reconciler

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpunstructured "github.com/crossplane/crossplane-runtime/v2/pkg/resource/unstructured"

	"github.com/cairn-iac/cairn/internal/crds"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/providers"
)

// fixture is a fake API server holding a ClusterProviderConfig, a Secret
// and managed resources of the test provider's test_thing, and the
// connector a controller would use over it.
type fixture struct {
	t        *testing.T
	provider *enginetest.TestProvider
	kind     *Kind
	kube     client.Client
	conn     *connector
}

func newFixture(t *testing.T, async bool) *fixture {
	t.Helper()
	tp := &enginetest.TestProvider{}
	schema := tp.GetProviderSchema(context.Background())
	ck, err := crds.KindFor("test", "test_thing")
	if err != nil {
		t.Fatal(err)
	}
	k := &Kind{GVK: ck.GroupVersionKind(), Provider: enginetest.TestProviderAddr, TypeName: "test_thing",
		Schema: schema.ResourceTypes["test_thing"], ExternalName: IdentifierFromProvider(), Async: async}
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	_, cluster := crds.ProviderConfigKinds("test")
	pc := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"credentials": map[string]any{"source": "None"}}}}
	pc.SetGroupVersionKind(cluster.GroupVersionKind())
	pc.SetName("default")
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s"}, Data: map[string][]byte{"password": []byte("hunter2")}}
	fc := fake.NewClientBuilder().WithScheme(s).WithObjects(pc, secret).Build()
	kube := xpunstructured.NewClient(fc)
	f := &fixture{t: t, provider: tp, kind: k, kube: kube}
	lib := providers.NewLibrary(providers.Registry{k.Provider: func() (providers.Interface, error) { return tp, nil }})
	t.Cleanup(func() { _ = lib.Close() })
	f.conn = &connector{kind: k, kube: kube, workspaces: &Workspaces{}, providers: &providerInstances{
		name: "test", lib: lib, addr: k.Provider, schema: schema.Provider, ctx: context.Background()}}
	return f
}

// create stores a managed resource with the given spec.forProvider.
func (f *fixture) create(name string, forProvider map[string]any) *Managed {
	f.t.Helper()
	m := NewManaged(f.kind.GVK.GroupVersion().String(), f.kind.GVK.Kind)
	m.SetNamespace("ns")
	m.SetName(name)
	m.Object["spec"] = map[string]any{"forProvider": forProvider}
	if err := f.kube.Create(context.Background(), m); err != nil {
		f.t.Fatal(err)
	}
	return m
}

func (f *fixture) external(m *Managed) managed.ExternalClient {
	f.t.Helper()
	e, err := f.conn.Connect(context.Background(), m)
	if err != nil {
		f.t.Fatalf("Connect: %v", err)
	}
	return e
}

func (f *fixture) observe(m *Managed) managed.ExternalObservation {
	f.t.Helper()
	o, err := f.external(m).Observe(context.Background(), m)
	if err != nil {
		f.t.Fatalf("Observe: %v", err)
	}
	return o
}

// TestExternalLifecycle walks one managed resource through create,
// observation, late initialisation, update, a refused replacement, a
// restarted controller, delete and drift.
func TestExternalLifecycle(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	m := f.create("a", map[string]any{"name": "a", "secretSecretRef": map[string]any{"name": "s", "key": "password"}})

	if o := f.observe(m); o.ResourceExists {
		t.Fatal("a resource with no external name exists")
	}
	cr, err := f.external(m).Create(ctx, m)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if got := meta.GetExternalName(m); got != "thing-1" {
		t.Errorf("external name after create = %q, want the provider's id thing-1", got)
	}
	if got := string(cr.ConnectionDetails["attribute.secret"]); got != "hunter2" {
		t.Errorf("connection detail attribute.secret = %q, want the secret read through secretSecretRef", got)
	}
	if diff := cmp.Diff(map[string]any{"id": "thing-1", "name": "a", "size": int64(1)}, m.atProvider()); diff != "" {
		t.Errorf("status.atProvider (-want +got):\n%s", diff)
	}

	o := f.observe(m)
	if !o.ResourceExists || !o.ResourceUpToDate {
		t.Fatalf("after create: %+v, want existing and up to date", o)
	}
	if !o.ResourceLateInitialized || m.Object["spec"].(map[string]any)["forProvider"].(map[string]any)["size"] != int64(1) {
		t.Errorf("size the provider chose was not late-initialised into forProvider: %v", m.Object["spec"])
	}
	if c := m.GetCondition(xpv1.TypeReady); c.Reason != xpv1.ReasonAvailable {
		t.Errorf("Ready condition %+v, want Available", c)
	}

	setField(m, "name", "b")
	if o := f.observe(m); o.ResourceUpToDate {
		t.Fatal("a changed name is up to date")
	}
	if _, err := f.external(m).Update(ctx, m); err != nil {
		t.Fatalf("Update: %v", err)
	}
	if o := f.observe(m); !o.ResourceUpToDate {
		t.Error("not up to date after the update")
	}

	setField(m, "replaceKey", "k2")
	_, err = f.external(m).Observe(ctx, m)
	var refused *ReplaceRefusedError
	if !errors.As(err, &refused) || !cmp.Equal(refused.Fields, []string{"spec.forProvider.replaceKey"}) {
		t.Fatalf("a change that forces replacement: error %v, want ReplaceRefusedError naming spec.forProvider.replaceKey", err)
	}
	setField(m, "replaceKey", nil)

	// A restarted controller has no workspace: the state comes from status.
	f.conn.workspaces = &Workspaces{}
	if o := f.observe(m); !o.ResourceExists || !o.ResourceUpToDate {
		t.Errorf("after a restart: %+v, want the resource found from status and up to date", o)
	}

	if _, err := f.external(m).Delete(ctx, m); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	want := []string{"apply a create", "apply b update", "apply b delete"}
	if diff := cmp.Diff(want, f.provider.Log); diff != "" {
		t.Errorf("provider calls (-want +got):\n%s", diff)
	}

	f.provider.Gone = []string{"b"}
	if o := f.observe(m); o.ResourceExists {
		t.Error("a resource the provider no longer finds exists")
	}
}

func setField(m *Managed, field string, v any) {
	fp := m.Object["spec"].(map[string]any)["forProvider"].(map[string]any)
	if v == nil {
		delete(fp, field)
		return
	}
	fp[field] = v
}

// TestInitProvider: initProvider's fields are used to create and then
// ignored; forProvider wins where both are set.
func TestInitProvider(t *testing.T) {
	f := newFixture(t, false)
	m := f.create("a", map[string]any{"name": "a"})
	m.Object["spec"].(map[string]any)["initProvider"] = map[string]any{"replaceKey": "first", "name": "ignored"}
	if _, err := f.external(m).Create(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	at := m.atProvider()
	if at["replaceKey"] != "first" || at["name"] != "a" {
		t.Fatalf("created with %v, want replaceKey from initProvider and name from forProvider", at)
	}
	m.Object["spec"].(map[string]any)["initProvider"] = map[string]any{"replaceKey": "second"}
	if o := f.observe(m); !o.ResourceUpToDate {
		t.Error("a change of initProvider after create makes the resource out of date")
	}
	if _, set := m.Object["spec"].(map[string]any)["forProvider"].(map[string]any)["replaceKey"]; set {
		t.Error("an initProvider field was late-initialised into forProvider")
	}
}

// TestSpecErrors: spec the schema does not allow is an error naming the
// field, and nothing is created.
func TestSpecErrors(t *testing.T) {
	cases := map[string]struct {
		forProvider map[string]any
		want        string
	}{
		"unknown field":  {map[string]any{"name": "a", "colour": "red"}, "colour"},
		"wrong type":     {map[string]any{"name": int64(3)}, "name"},
		"missing secret": {map[string]any{"name": "a", "secretSecretRef": map[string]any{"name": "nope", "key": "k"}}, "nope"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, false)
			m := f.create("a", tc.forProvider)
			_, err := f.external(m).Create(context.Background(), m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
			if len(f.provider.Log) != 0 {
				t.Errorf("the provider was called: %v", f.provider.Log)
			}
		})
	}
}

// TestImportByExternalName: a managed resource whose external name is set
// by hand adopts the existing object.
func TestImportByExternalName(t *testing.T) {
	f := newFixture(t, false)
	m := f.create("a", map[string]any{"name": "existing"})
	meta.SetExternalName(m, "existing")
	f.kind.ExternalName = ExternalName{ExternalNameFromState: func(v cty.Value) (string, error) {
		return strings.TrimPrefix(v.GetAttr("id").AsString(), "imported-"), nil
	}}
	o := f.observe(m)
	if !o.ResourceExists {
		t.Fatal("the imported resource does not exist")
	}
	if m.atProvider()["id"] != "imported-existing" {
		t.Errorf("atProvider %v, want the imported object", m.atProvider())
	}
	gone := f.create("b", map[string]any{"name": "b"})
	meta.SetExternalName(gone, "missing-one")
	if o := f.observe(gone); o.ResourceExists {
		t.Error("an external name the provider does not know exists")
	}
}

// TestAsync: an asynchronous create returns at once; when it ends, the
// external name is on the stored object and the next observation sees
// the resource.
func TestAsync(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	release := make(chan struct{})
	f.provider.ApplyHook = func(_ providers.ApplyResourceChangeRequest, v cty.Value) cty.Value {
		<-release
		return v
	}
	m := f.create("a", map[string]any{"name": "a"})
	if _, err := f.external(m).Create(ctx, m); err != nil {
		t.Fatal(err)
	}
	op := f.conn.workspaces.Get(m.GetUID()).running()
	if op == nil {
		t.Fatal("no operation running after an async create")
	}
	o := f.observe(m)
	if !o.ResourceExists || !o.ResourceUpToDate {
		t.Errorf("while creating: %+v, want exists and up to date so nothing else starts", o)
	}
	if _, err := f.external(m).Update(ctx, m); err == nil {
		t.Error("a second operation started while the create runs")
	}
	close(release)
	<-op.done
	live := NewManaged(f.kind.GVK.GroupVersion().String(), f.kind.GVK.Kind)
	if err := f.kube.Get(ctx, client.ObjectKeyFromObject(m), live); err != nil {
		t.Fatal(err)
	}
	if got := meta.GetExternalName(live); got != "thing-1" {
		t.Fatalf("stored external name %q after the async create, want thing-1", got)
	}
	if o := f.observe(live); !o.ResourceExists || !o.ResourceUpToDate {
		t.Errorf("after the async create: %+v", o)
	}
}

// TestObserveOnly: with policies that do not allow updates, a spec that
// differs from the resource is not planned and reads as up to date.
func TestObserveOnly(t *testing.T) {
	f := newFixture(t, false)
	m := f.create("a", map[string]any{"name": "a"})
	if _, err := f.external(m).Create(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	setField(m, "name", "changed")
	if o := f.observe(m); o.ResourceUpToDate {
		t.Fatal("with every policy, a changed name is up to date")
	}
	m.SetManagementPolicies(xpv1.ManagementPolicies{xpv1.ManagementActionObserve})
	if o := f.observe(m); !o.ResourceExists || !o.ResourceUpToDate {
		t.Errorf("ObserveOnly: %+v, want existing and up to date", o)
	}
}

// TestCredentialsNeverQuoted: a credentials Secret that is not JSON is an
// error that says so without repeating any of its characters.
func TestCredentialsNeverQuoted(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	bad := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "creds"}, Data: map[string][]byte{"k": []byte("zq-secret-zq")}}
	if err := f.kube.Create(ctx, bad); err != nil {
		t.Fatal(err)
	}
	_, cluster := crds.ProviderConfigKinds("test")
	pc := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"credentials": map[string]any{
		"source": "Secret", "secretRef": map[string]any{"namespace": "ns", "name": "creds", "key": "k"}}}}}
	pc.SetGroupVersionKind(cluster.GroupVersionKind())
	pc.SetName("bad")
	if err := f.kube.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	m := f.create("a", map[string]any{"name": "a"})
	m.SetProviderConfigReference(&xpv1.ProviderConfigReference{Kind: cluster.Kind, Name: "bad"})
	_, err := f.conn.Connect(ctx, m)
	if err == nil || !strings.Contains(err.Error(), "is not a JSON object") {
		t.Fatalf("Connect error %v, want one saying the credentials are not JSON", err)
	}
	if strings.Contains(err.Error(), "'z'") || strings.Contains(err.Error(), "secret-zq") {
		t.Errorf("the error quotes the credentials: %v", err)
	}
}
