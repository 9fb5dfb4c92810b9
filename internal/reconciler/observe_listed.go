package reconciler

import (
	"context"
	"fmt"
	"strings"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/zclconf/go-cty/cty"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cairn-iac/cairn/internal/providers"
)

// ObserveOptions say where ObserveListed puts the managed resources it
// creates, and how many objects it lists (all when Limit is not positive).
type ObserveOptions struct {
	Namespace string
	Limit     int64
}

// ObserveListed turns what a listing finds into observe-only managed
// resources: it lists the objects of kind's type through p (a configured
// provider instance that lists resources and serves identities) and
// creates, in opts.Namespace, one managed resource per object with
// managementPolicies ["Observe"] and the crossplane.io/external-name
// annotation naming it. The controller then observes each (status.atProvider
// filled from the refreshed object) and never creates, updates or deletes
// it.
//
// The external name is the one the kind's ExternalName gives the state
// the provider's import by identity answers with, so it is what the
// controller's Observe reads the object by. Object names come from the
// listed display names, made DNS names, unique within the listing. A
// managed resource of the same name already there is left as it is and
// not counted. It returns the names created.
func ObserveListed(ctx context.Context, kube client.Client, k *Kind, p providers.Interface, opts ObserveOptions) ([]string, error) {
	lp, ok := p.(providers.ListResourceProvider)
	if !ok {
		return nil, fmt.Errorf("provider %s cannot list its resources", k.Provider)
	}
	resp := lp.ListResource(ctx, providers.ListResourceRequest{TypeName: k.TypeName, Config: cty.EmptyObjectVal, Limit: opts.Limit})
	if resp.Diagnostics.HasErrors() || resp.Results == nil {
		return nil, fmt.Errorf("listing %s: %w", k.TypeName, resp.Diagnostics.Err())
	}
	taken := map[string]bool{}
	var created []string
	for r := range resp.Results {
		if r.Diagnostics.HasErrors() {
			return created, fmt.Errorf("listing %s: %w", k.TypeName, r.Diagnostics.Err())
		}
		ext, err := externalNameOf(ctx, k, p, r.Identity)
		if err != nil {
			return created, err
		}
		m := observeOnly(k, opts.Namespace, dnsName(taken, r.DisplayName, ext), ext)
		switch err := kube.Create(ctx, &m.Unstructured); {
		case apierrors.IsAlreadyExists(err):
			continue
		case err != nil:
			return created, fmt.Errorf("creating %s %s: %w", k.GVK.Kind, m.GetName(), err)
		}
		created = append(created, m.GetName())
	}
	return created, nil
}

// externalNameOf is the external name of the object identity names: the
// kind's external name of the state an import by identity gives.
func externalNameOf(ctx context.Context, k *Kind, p providers.Interface, identity cty.Value) (string, error) {
	resp := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: k.TypeName, Identity: identity})
	if resp.Diagnostics.HasErrors() {
		return "", fmt.Errorf("importing %s by identity: %w", k.TypeName, resp.Diagnostics.Err())
	}
	for _, r := range resp.ImportedResources {
		if r.TypeName == k.TypeName {
			return k.ExternalName.fromState(r.State)
		}
	}
	return "", fmt.Errorf("importing %s by identity gave no object", k.TypeName)
}

// observeOnly is a managed resource that only observes the object of
// external name ext.
func observeOnly(k *Kind, ns, name, ext string) *Managed {
	m := NewManaged(k.GVK.GroupVersion().String(), k.GVK.Kind)
	m.SetNamespace(ns)
	m.SetName(name)
	meta.SetExternalName(m, ext)
	m.Object["spec"] = map[string]any{"forProvider": map[string]any{}}
	m.SetManagementPolicies(xpv1.ManagementPolicies{xpv1.ManagementActionObserve})
	return m
}

// dnsName makes an object name of a display name (else the external
// name): lowercase letters, digits and "-", other runs one "-", at most
// 63 characters, "-2", "-3", ... after a name already taken.
func dnsName(taken map[string]bool, display, ext string) string {
	base := dnsLabel(display)
	if base == "" {
		base = dnsLabel(ext)
	}
	if base == "" {
		base = "listed"
	}
	name := base
	for n := 2; taken[name]; n++ {
		suffix := fmt.Sprintf("-%d", n)
		name = strings.TrimRight(base[:min(len(base), 63-len(suffix))], "-") + suffix
	}
	taken[name] = true
	return name
}

func dnsLabel(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := b.String()
	return strings.Trim(out[:min(len(out), 63)], "-")
}
