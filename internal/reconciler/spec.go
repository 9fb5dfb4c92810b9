package reconciler

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/crds"
	"github.com/cairn-iac/cairn/internal/fieldname"
)

// unstructuredMap returns the object at path in obj.
func unstructuredMap(obj map[string]any, path ...string) (map[string]any, bool, error) {
	cur := obj
	for i, p := range path {
		next, ok := cur[p]
		if !ok || next == nil {
			return nil, false, nil
		}
		m, ok := next.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf("%v is not an object", path[:i+1])
		}
		cur = m
	}
	return cur, true, nil
}

// desired is the configuration spec asks for. spec.initProvider's fields
// count only where spec.forProvider leaves them unset, and only until the
// resource exists: against an existing object (prior non-nil) each of them
// takes the object's value, so later changes there are ignored, as
// Crossplane documents initProvider. The kind's identifier argument gets
// the external name.
func (e *external) desired(ctx context.Context, m *Managed, prior cty.Value) (cty.Value, error) {
	fp, _, err := unstructuredMap(m.Object, "spec", "forProvider")
	if err != nil {
		return cty.NilVal, err
	}
	ip, _, err := unstructuredMap(m.Object, "spec", "initProvider")
	if err != nil {
		return cty.NilVal, err
	}
	merged := map[string]any{}
	for k, v := range ip {
		merged[k] = v
	}
	for k, v := range fp {
		merged[k] = v
	}
	config, err := crds.DecodeParameters(e.kind.Schema.Block, merged, e.secrets(ctx, m.GetNamespace()))
	if err != nil {
		return cty.NilVal, fmt.Errorf("spec: %w", err)
	}
	if prior != cty.NilVal && !prior.IsNull() {
		config = keepInitOnly(e.kind.Schema.Block, config, prior, ip, fp)
	}
	return e.kind.ExternalName.withIdentifier(config, meta.GetExternalName(m)), nil
}

// keepInitOnly gives every attribute set only in initProvider the prior
// object's value.
func keepInitOnly(b *configschema.Block, config, prior cty.Value, ip, fp map[string]any) cty.Value {
	vals := config.AsValueMap()
	changed := false
	for name := range b.Attributes {
		f := fieldname.Camel(name)
		_, inInit := ip[f]
		_, inFor := fp[f]
		if inInit && !inFor {
			vals[name] = prior.GetAttr(name)
			changed = true
		}
	}
	if !changed {
		return config
	}
	return cty.ObjectVal(vals)
}

// secrets reads the Secrets of SecretRef fields from the object's own
// namespace.
func (e *external) secrets(ctx context.Context, namespace string) crds.SecretResolver {
	return func(ref crds.SecretKeySelector) ([]byte, error) {
		var s corev1.Secret
		if err := e.kube.Get(ctx, client.ObjectKey{Namespace: namespace, Name: ref.Name}, &s); err != nil {
			return nil, fmt.Errorf("reading secret %s/%s: %w", namespace, ref.Name, err)
		}
		v, ok := s.Data[ref.Key]
		if !ok {
			return nil, fmt.Errorf("secret %s/%s has no key %q", namespace, ref.Name, ref.Key)
		}
		return v, nil
	}
}

// lateInitialize copies into spec.forProvider the values the provider
// chose for configurable attributes spec leaves unset (neither
// forProvider nor initProvider names them), so the object shows what
// exists; it reports whether anything was added. crossplane-runtime
// persists the change only when the management policies allow
// LateInitialize.
func (e *external) lateInitialize(m *Managed, state cty.Value) bool {
	fp, _, err := unstructuredMap(m.Object, "spec", "forProvider")
	if err != nil {
		return false
	}
	ip, _, _ := unstructuredMap(m.Object, "spec", "initProvider")
	observed := crds.EncodeParameters(e.kind.Schema.Block, state)
	added := map[string]any{}
	for k, v := range observed {
		if _, set := fp[k]; set {
			continue
		}
		if _, set := ip[k]; set {
			continue
		}
		if _, secret := fp[k+"SecretRef"]; secret {
			continue
		}
		added[k] = v
	}
	if len(added) == 0 {
		return false
	}
	if fp == nil {
		fp = map[string]any{}
	}
	for k, v := range added {
		fp[k] = v
	}
	_ = m.paved().SetValue("spec.forProvider", fp)
	return true
}
