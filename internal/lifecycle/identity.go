package lifecycle

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/valjson"
)

// Resource identity (plugin protocol 6.9): a provider that serves
// identities returns one with every object it reads, creates or imports;
// the engine stores it beside the object (states.Identity, raw JSON and
// version) and sends it back on the next read, plan and apply, as
// Terraform 1.12 does. Only here is a stored identity given its type.

// identitySchema returns the provider's identity schema for the target's
// resource type; ok is false when the provider has no identities or none
// for this type.
func (t *Target) identitySchema(ctx context.Context) (providers.IdentitySchema, bool) {
	ip, ok := t.Provider.(providers.IdentityProvider)
	if !ok {
		return providers.IdentitySchema{}, false
	}
	s, ok := ip.GetResourceIdentitySchemas(ctx).IdentityTypes[t.typeName()]
	return s, ok
}

// decodeIdentity gives a stored identity its type, asking the provider to
// upgrade one written under another identity schema version
// (UpgradeResourceIdentity). It returns cty.NilVal (send none) for no
// identity, or when the provider no longer has one for the type.
func decodeIdentity(ctx context.Context, t *Target, id states.Identity) (cty.Value, diags.Diagnostics) {
	if id.IsNone() {
		return cty.NilVal, nil
	}
	s, ok := t.identitySchema(ctx)
	if !ok {
		return cty.NilVal, nil
	}
	if id.SchemaVersion != uint64(s.Version) {
		ip := t.Provider.(providers.IdentityProvider)
		resp := ip.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{TypeName: t.typeName(), Version: int64(id.SchemaVersion), RawJSON: id.JSON})
		ds := t.named(resp.Diagnostics)
		if ds.HasErrors() {
			return cty.NilVal, ds
		}
		v := resp.UpgradedIdentity
		if v == cty.NilVal || v.IsNull() || len(v.Type().TestConformance(s.ImpliedType())) > 0 {
			return cty.NilVal, ds.Append(t.contractError("Provider produced invalid identity",
				fmt.Sprintf("upgrading the stored identity from version %d returned no identity of the current identity schema", id.SchemaVersion)))
		}
		return v, ds
	}
	v, err := valjson.Unmarshal(id.JSON, s.ImpliedType())
	if err != nil {
		return cty.NilVal, t.named(diags.Diagnostics{diags.Errorf("Invalid resource identity in state",
			"The identity stored for %s does not match the provider's identity schema (version %d): %s. Providers must not change an identity schema without changing its version.",
			t.Addr.ResourceInstance, s.Version, err)})
	}
	return v, nil
}

// encodeIdentity is the stored form of an identity a provider returned;
// none for cty.NilVal or null, or when the provider as the engine sees it
// offers no identity schemas. An identity that does not match the
// provider's own identity schema, or is not wholly known, breaks the
// contract.
func encodeIdentity(ctx context.Context, t *Target, v cty.Value) (states.Identity, diags.Diagnostics) {
	if v == cty.NilVal || v.IsNull() {
		return states.Identity{}, nil
	}
	if _, ok := t.Provider.(providers.IdentityProvider); !ok {
		// A wrapper in front of the provider (cairn test's lazy start,
		// a test double) offers no identity schemas: without one the
		// identity cannot be stored, and the object stands without it.
		return states.Identity{}, nil
	}
	s, ok := t.identitySchema(ctx)
	if !ok {
		return states.Identity{}, diags.Diagnostics{t.contractError("Provider produced invalid identity",
			"it returned an identity for a resource type that has no identity schema")}
	}
	if errs := v.Type().TestConformance(s.ImpliedType()); len(errs) > 0 {
		return states.Identity{}, diags.Diagnostics{t.contractError("Provider produced invalid identity",
			fmt.Sprintf("the identity does not conform to the identity schema: %s", errs[0]))}
	}
	if errs := objchange.AssertWhollyKnown(v); len(errs) > 0 {
		return states.Identity{}, diags.Diagnostics{t.contractError("Provider produced invalid identity",
			fmt.Sprintf("the identity has an unknown value at %s", errs[0]))}
	}
	src, err := valjson.Marshal(v, s.ImpliedType())
	if err != nil {
		return states.Identity{}, diags.Diagnostics{t.contractError("Provider produced invalid identity", err.Error())}
	}
	return states.Identity{JSON: src, SchemaVersion: uint64(s.Version)}, nil
}

// keptIdentity is the identity an object has after a read or an update
// whose answer held newID: the stored prior when the provider returned
// none (an identity does not go away), newID otherwise. A different
// identity is a contract violation, as in Terraform: an identity names
// one remote object for as long as it exists.
func keptIdentity(t *Target, op string, prior, newID states.Identity) (states.Identity, diags.Diagnostics) {
	switch {
	case newID.IsNone():
		return prior, nil
	case prior.IsNone() || prior.Equal(newID):
		return newID, nil
	}
	return prior, diags.Diagnostics{t.contractError("Unexpected Identity Change",
		fmt.Sprintf("during the %s operation it returned a different identity than the one stored (stored %s, returned %s)", op, prior.JSON, newID.JSON))}
}

// readIdentity is the identity an object has after a read that was sent
// cur (the stored identity, decoded and perhaps upgraded) and answered
// with newV.
func readIdentity(ctx context.Context, t *Target, stored states.Identity, cur, newV cty.Value) (states.Identity, diags.Diagnostics) {
	newID, ds := encodeIdentity(ctx, t, newV)
	if ds.HasErrors() {
		return stored, ds
	}
	prior := stored
	if cur != cty.NilVal {
		// Compared in the current version's form: the stored one may be
		// older (upgraded on the way in).
		var pds diags.Diagnostics
		if prior, pds = encodeIdentity(ctx, t, cur); pds.HasErrors() {
			return stored, pds
		}
	}
	return keptIdentity(t, "read", prior, newID)
}

// appliedIdentity is the identity of the object an apply leaves: the one
// the provider returned, which for an update must be the one it was sent.
func appliedIdentity(ctx context.Context, t *Target, p *Planned, newV cty.Value) (states.Identity, diags.Diagnostics) {
	newID, ds := encodeIdentity(ctx, t, newV)
	if ds.HasErrors() || p.identity == cty.NilVal || p.prior.u.IsNull() {
		return newID, ds
	}
	sent, ds := encodeIdentity(ctx, t, p.identity)
	if ds.HasErrors() {
		return newID, ds
	}
	return keptIdentity(t, "apply", sent, newID)
}

// conformIdentity makes the attributes an import block's identity set
// into a value of the identity schema: each converted to its attribute's
// type, those not set null. An attribute the identity does not have, or
// a missing one required for import, is an error.
func conformIdentity(s providers.IdentitySchema, v cty.Value) (cty.Value, error) {
	given := v.AsValueMap()
	out := make(map[string]cty.Value, len(s.Attributes))
	for _, a := range s.Attributes {
		e, ok := given[a.Name]
		delete(given, a.Name)
		if !ok || e.IsNull() {
			if a.RequiredForImport {
				return cty.NilVal, fmt.Errorf("the attribute %q is required", a.Name)
			}
			out[a.Name] = cty.NullVal(a.Type)
			continue
		}
		c, err := convert.Convert(e, a.Type)
		if err != nil {
			return cty.NilVal, fmt.Errorf("attribute %q: %s", a.Name, err)
		}
		out[a.Name] = c
	}
	for n := range given {
		return cty.NilVal, fmt.Errorf("it has no attribute %q", n)
	}
	return cty.ObjectVal(out), nil
}
