package reconciler

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/crds"
	"github.com/cairn-iac/cairn/internal/fieldname"
	"github.com/cairn-iac/cairn/internal/providers"
)

// connector connects a managed resource to a provider configured by its
// ProviderConfig or ClusterProviderConfig. Configured providers are shared
// between managed resources with the same configuration (the same
// settings and credentials), one instance each, configured once.
type connector struct {
	kind       *Kind
	kube       client.Client
	live       client.Reader
	workspaces *Workspaces
	providers  *providerInstances
	stats      *Stats
}

var _ managed.ExternalConnector = (*connector)(nil)

// Connect implements managed.ExternalConnector.
func (c *connector) Connect(ctx context.Context, mg resource.Managed) (managed.ExternalClient, error) {
	m, err := asManaged(mg)
	if err != nil {
		return nil, err
	}
	ref := m.GetProviderConfigReference()
	if ref == nil || ref.Name == "" {
		ref = &xpv1.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "default"}
	}
	config, err := c.providers.configuration(ctx, c.kube, ref, m.GetNamespace())
	if err != nil {
		return nil, err
	}
	p, key, err := c.providers.get(config)
	if err != nil {
		return nil, err
	}
	e := newExternal(c.kind, c.kube, c.workspaces, p, m)
	e.providerKey, e.live = key, c.live
	if c.stats != nil {
		e.stats = c.stats
	}
	return e, nil
}

// providerInstances holds the configured providers of one provider, by
// configuration. The library starts and configures them, as it does for
// the engine, and stops them when ctx ends.
type providerInstances struct {
	name   string // the provider's local name, "awscc": its ProviderConfig kinds' group
	lib    *providers.Library
	addr   addrs.Provider
	schema providers.Schema
	ctx    context.Context

	mu        sync.Mutex
	instances map[string]*providerInstance
}

type providerInstance struct {
	once sync.Once
	p    providers.Interface
	err  error
}

// configuration reads the ProviderConfig ref names (in namespace for the
// namespaced kind) and its credentials Secret, and returns the provider
// configuration they make: spec.configuration with the secret's JSON
// object (snake_case attribute names) laid over it.
func (pi *providerInstances) configuration(ctx context.Context, kube client.Client, ref *xpv1.ProviderConfigReference, namespace string) (map[string]any, error) {
	namespaced, cluster := crds.ProviderConfigKinds(pi.name)
	var k crds.Kind
	key := client.ObjectKey{Name: ref.Name}
	switch ref.Kind {
	case namespaced.Kind:
		k, key.Namespace = namespaced, namespace
	case cluster.Kind, "":
		k = cluster
	default:
		return nil, fmt.Errorf("providerConfigRef.kind %q: want %s or %s", ref.Kind, namespaced.Kind, cluster.Kind)
	}
	pc := &unstructured.Unstructured{}
	pc.SetGroupVersionKind(k.GroupVersionKind())
	if err := kube.Get(ctx, key, pc); err != nil {
		return nil, fmt.Errorf("reading %s %s: %w", k.Kind, ref.Name, err)
	}
	settings, _, err := unstructured.NestedMap(pc.Object, "spec", "configuration")
	if err != nil {
		return nil, fmt.Errorf("%s %s: spec.configuration: %w", k.Kind, ref.Name, err)
	}
	if settings == nil {
		settings = map[string]any{}
	}
	source, _, _ := unstructured.NestedString(pc.Object, "spec", "credentials", "source")
	if source != "Secret" {
		return settings, nil
	}
	sref, _, _ := unstructured.NestedStringMap(pc.Object, "spec", "credentials", "secretRef")
	sns := sref["namespace"]
	if k.Kind == namespaced.Kind || sns == "" {
		sns = key.Namespace
	}
	var s corev1.Secret
	if err := kube.Get(ctx, client.ObjectKey{Namespace: sns, Name: sref["name"]}, &s); err != nil {
		return nil, fmt.Errorf("%s %s: reading credentials secret %s/%s: %w", k.Kind, ref.Name, sns, sref["name"], err)
	}
	raw, ok := s.Data[sref["key"]]
	if !ok {
		return nil, fmt.Errorf("%s %s: credentials secret %s/%s has no key %q", k.Kind, ref.Name, sns, sref["name"], sref["key"])
	}
	var creds map[string]any
	if err := json.Unmarshal(raw, &creds); err != nil {
		// The decoder's message quotes the credentials' characters; say
		// only where it went wrong.
		where := ""
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			where = fmt.Sprintf(" (invalid JSON at byte %d)", syn.Offset)
		}
		return nil, fmt.Errorf("%s %s: credentials secret %s/%s key %q is not a JSON object%s", k.Kind, ref.Name, sns, sref["name"], sref["key"], where)
	}
	for name, v := range creds {
		field := fieldname.Camel(name)
		if a := pi.schema.Block.Attributes[name]; a != nil && a.Secret() {
			// The codec reads sensitive values only through a SecretRef;
			// this one points into the credentials themselves.
			settings[field+"SecretRef"] = map[string]any{"name": credentialsRef, "key": name}
			continue
		}
		settings[field] = v
	}
	settings[credentialsField] = creds
	return settings, nil
}

// credentialsRef and credentialsField carry a ProviderConfig's
// credentials through the settings map: the SecretRefs of sensitive
// attributes name credentialsRef, and the values are kept under
// credentialsField (which no attribute can be: it is not camelCase).
const (
	credentialsRef   = "credentials"
	credentialsField = "__credentials"
)

// credentialsResolver resolves the SecretRefs configuration made.
func credentialsResolver(creds map[string]any) crds.SecretResolver {
	return func(ref crds.SecretKeySelector) ([]byte, error) {
		v, ok := creds[ref.Key]
		if ref.Name != credentialsRef || !ok {
			return nil, fmt.Errorf("no credential %q", ref.Key)
		}
		if s, ok := v.(string); ok {
			return []byte(s), nil
		}
		return json.Marshal(v)
	}
}

// get returns the provider configured with settings, configuring a new
// instance the first time they are seen, and its key (the digest of the
// settings).
func (pi *providerInstances) get(settings map[string]any) (providers.Interface, string, error) {
	raw, err := json.Marshal(settings)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(raw)
	key := hex.EncodeToString(sum[:])
	pi.mu.Lock()
	if pi.instances == nil {
		pi.instances = map[string]*providerInstance{}
	}
	inst := pi.instances[key]
	if inst == nil {
		inst = &providerInstance{}
		pi.instances[key] = inst
	}
	pi.mu.Unlock()
	inst.once.Do(func() { inst.p, inst.err = pi.configure(settings) })
	if inst.err != nil {
		// A failed configuration is tried again next time: the Secret or
		// the endpoint may be fixed meanwhile.
		pi.mu.Lock()
		delete(pi.instances, key)
		pi.mu.Unlock()
	}
	return inst.p, key, inst.err
}

func (pi *providerInstances) configure(settings map[string]any) (providers.Interface, error) {
	creds, _ := settings[credentialsField].(map[string]any)
	plain := make(map[string]any, len(settings))
	for k, v := range settings {
		if k != credentialsField {
			plain[k] = v
		}
	}
	config, err := crds.DecodeParameters(pi.schema.Block, plain, credentialsResolver(creds))
	if err != nil {
		return nil, fmt.Errorf("provider configuration: %w", err)
	}
	p, ds := pi.lib.Configure(pi.ctx, pi.addr, config, "")
	if ds.HasErrors() {
		return nil, fmt.Errorf("configuring the provider: %w", ds.Err())
	}
	return p, nil
}

// Close closes every configured provider.
func (pi *providerInstances) Close() {
	pi.mu.Lock()
	defer pi.mu.Unlock()
	for _, inst := range pi.instances {
		if inst.p != nil {
			_ = pi.lib.Release(inst.p)
		}
	}
	pi.instances = nil
}
