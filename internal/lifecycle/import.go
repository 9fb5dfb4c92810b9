package lifecycle

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// Import asks the provider for the object that id names
// (ImportResourceState) and checks the answer: exactly one object, of the
// target's own resource type, conforming to its schema and wholly known.
// The object has the schema's marks and is ready to be refreshed. When the
// provider finds no object for id, Import returns nil and no error: that
// is an answer, which a caller that needs the object words with NoObject.
//
// A provider may answer with several objects of other types (legacy SDK
// providers did for a few resource types); Terraform stopped supporting
// that, and so does Cairn.
func Import(ctx context.Context, t *Target, id string) (*states.Object, diags.Diagnostics) {
	return importObject(ctx, t, providers.ImportResourceStateRequest{TypeName: t.typeName(), ID: id}, fmt.Sprintf("%q", id))
}

// ImportIdentity is Import by resource identity (Terraform 1.12's import
// block identity argument) instead of an ID: identity is a value of the
// type's identity schema, whose attributes not required for import may
// be null for the provider to fill in.
func ImportIdentity(ctx context.Context, t *Target, identity cty.Value) (*states.Object, diags.Diagnostics) {
	s, ok := t.identitySchema(ctx)
	if !ok {
		return nil, t.named(diags.Diagnostics{diags.Errorf("Resource type does not support import by identity",
			"The provider of %s has no resource identity for %s, so it cannot be imported by identity; use an id instead.", t.Addr.ResourceInstance, t.typeName())})
	}
	full, err := conformIdentity(s, identity)
	if err != nil {
		return nil, t.named(diags.Diagnostics{diags.Errorf("Invalid import identity", "The identity for %s does not match the resource type's identity: %s.", t.Addr.ResourceInstance, err)})
	}
	return importObject(ctx, t, providers.ImportResourceStateRequest{TypeName: t.typeName(), Identity: full}, "by identity")
}

func importObject(ctx context.Context, t *Target, req providers.ImportResourceStateRequest, what string) (*states.Object, diags.Diagnostics) {
	resp := t.Provider.ImportResourceState(ctx, req)
	ds := t.named(resp.Diagnostics)
	if ds.HasErrors() {
		return nil, ds
	}
	switch n := len(resp.ImportedResources); {
	case n == 0:
		return nil, ds
	case n > 1:
		return nil, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("importing %s returned %d objects; Cairn imports exactly one object per resource instance", what, n)))
	}
	imp := resp.ImportedResources[0]
	if imp.TypeName != t.typeName() {
		return nil, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("importing into a %s returned an object of type %s", t.typeName(), imp.TypeName)))
	}
	val := imp.State
	if val == cty.NilVal || val.IsNull() {
		return nil, ds
	}
	if errs := val.Type().TestConformance(t.Schema.ImpliedType()); len(errs) > 0 {
		return nil, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("the imported object does not conform to the schema: %s", errs[0])))
	}
	if errs := objchange.AssertWhollyKnown(val); len(errs) > 0 {
		return nil, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("the imported object has an unknown value at %s", errs[0])))
	}
	id, ids := encodeIdentity(ctx, t, imp.Identity)
	if ds = ds.Append(ids); ids.HasErrors() {
		return nil, ds
	}
	return &states.Object{Value: t.Schema.MarkSensitive(val), Private: imp.Private, Status: states.ObjectReady, Identity: id}, ds
}

// NoObject is Terraform's error for an import whose id names no object:
// ImportResourceState found none, or the read that follows found it gone.
func NoObject(t *Target) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Cannot import non-existent remote object",
		Detail: fmt.Sprintf("While attempting to import an existing object to %q, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use \"cairn apply\" to create a new remote object for this resource.",
			t.Addr.ResourceInstance),
		Address: t.Addr.ResourceInstance.String(),
	}
}
