package lifecycle

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Target is one resource instance object and what every step needs to talk
// to its provider about it.
type Target struct {
	Addr addrs.AbsResourceInstanceObject
	// Provider is the instance to call: configured, except for
	// ValidateConfig, which Terraform runs before configuration.
	Provider providers.Interface
	// ProviderAddr names the provider in contract errors.
	ProviderAddr addrs.Provider
	// Schema is the resource type's (or data source's) schema, and
	// SchemaVersion its version.
	Schema        *configschema.Block
	SchemaVersion int64
	// ProviderMeta is the module's provider_meta for this provider,
	// unmarked; cty.NilVal sends a null.
	ProviderMeta cty.Value
	// ProviderConfig is the configuration Provider was configured with,
	// marks included (providers.InstanceSet.Config), or cty.NilVal: parts
	// the provider copies into objects (configschema.Copy.FromProvider)
	// are sensitive there where they are sensitive in it.
	ProviderConfig cty.Value
	// Body and DeclRange are the resource block's, when the object has a
	// configuration: provider diagnostics with attribute paths are located
	// in it. Body is nil for an object no longer configured.
	Body      hcl.Body
	DeclRange hcl.Range
	// MovedFrom, when set, says a moved block brought the stored object
	// from another resource type or provider: reading it goes through the
	// provider's MoveResourceState instead of UpgradeResourceState.
	MovedFrom *MovedFrom
	// Identity is the stored identity of the object's prior state, which
	// Plan and Apply send with an update (see identity.go); zero when none.
	Identity states.Identity
}

func (t *Target) typeName() string { return t.Addr.ResourceInstance.Resource.Resource.Type }

func (t *Target) meta() cty.Value {
	if t.ProviderMeta == cty.NilVal {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return t.ProviderMeta
}

func (t *Target) null() cty.Value { return cty.NullVal(t.Schema.ImpliedType()) }

// located names the instance in provider diagnostics and, with a body,
// resolves their attribute paths to source ranges. Secrets of the values
// the provider was given (vals) are redacted from the text (see redact).
func (t *Target) located(ds diags.Diagnostics, vals ...split) diags.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	ds = redact(ds, vals)
	if t.Body != nil {
		ds = ds.InBody(t.Body, t.DeclRange)
	}
	return ds.WithAddressOf(t.Addr.ResourceInstance)
}

// named names the instance in diagnostics that have no attribute paths
// worth locating (reads of stored objects), redacted as located's are.
func (t *Target) named(ds diags.Diagnostics, vals ...split) diags.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	return redact(ds, vals).WithAddressOf(t.Addr.ResourceInstance)
}

func (t *Target) contractError(summary, what string) diags.Diagnostic {
	return ContractError(summary, t.ProviderAddr, t.Addr, what)
}

// ContractError words a provider contract violation for the user: which
// provider, which object, what was wrong, and whose bug it is. It is the
// one constructor of these messages, so every consumer of the lifecycle
// reports a misbehaving provider the same way.
func ContractError(summary string, provider addrs.Provider, addr addrs.AbsResourceInstanceObject, what string) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  summary,
		Detail: fmt.Sprintf("Provider %q produced an invalid result for %s: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
			provider.String(), addr, what),
		Address: addr.ResourceInstance.String(),
	}
}
