package reconciler

import (
	"bytes"
	"context"
	"strings"

	"github.com/zclconf/go-cty/cty"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/cairn-iac/cairn/internal/states"
)

// desiredKey is everything besides the refreshed object that decides an
// observation's outcome (up to date or not, late initialisation): spec
// as a whole through its generation, the desired configuration with its
// Secrets read (a rotated Secret changes it and not the generation), the
// external name, the management policies and the provider configuration
// that plans it. Two observations with equal keys and equal refreshed
// objects reach the same outcome, so the second need not plan.
type desiredKey struct {
	generation   int64
	externalName string
	policies     string
	// provider is the configured provider instance's key: the digest of
	// its settings (see providerInstances.get).
	provider string
	// config is the desired configuration; cty.NilVal when the policies
	// forbid changes and spec is not planned.
	config cty.Value
}

// desiredKey returns m's key; config is the desired configuration
// planned against the refreshed object, or cty.NilVal.
func (e *external) desiredKey(m *Managed, config cty.Value) desiredKey {
	ps := m.GetManagementPolicies()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = string(p)
	}
	return desiredKey{generation: m.GetGeneration(), externalName: meta.GetExternalName(m),
		policies: strings.Join(names, ","), provider: e.providerKey, config: config}
}

func (k desiredKey) equal(o desiredKey) bool {
	if k.generation != o.generation || k.externalName != o.externalName || k.policies != o.policies || k.provider != o.provider {
		return false
	}
	if k.config == cty.NilVal || o.config == cty.NilVal {
		return k.config == cty.NilVal && o.config == cty.NilVal
	}
	return k.config.RawEquals(o.config)
}

// sameObject reports whether two states hold the same object: value
// (sensitive marks included), private state and status.
func sameObject(a, b *states.Object) bool {
	return a.Status == b.Status && bytes.Equal(a.Private, b.Private) && a.Value.RawEquals(b.Value)
}

// desiredConfig is the configuration planned against obj, or cty.NilVal
// when the management policies forbid changes: spec then need not
// describe the resource fully and is not planned.
func (e *external) desiredConfig(ctx context.Context, m *Managed, obj *states.Object) (cty.Value, error) {
	if !mayChange(m.GetManagementPolicies()) {
		return cty.NilVal, nil
	}
	return e.desired(ctx, m, obj.Value)
}

// mayLateInitialize reports whether crossplane-runtime persists late
// initialisation under the policies p.
func mayLateInitialize(p xpv1.ManagementPolicies) bool {
	for _, a := range p {
		if a == xpv1.ManagementActionAll || a == xpv1.ManagementActionLateInitialize {
			return true
		}
	}
	return false
}
