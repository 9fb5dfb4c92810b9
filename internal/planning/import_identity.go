package planning

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
)

// importRef is what an import names its object by: the provider's id, or
// (Terraform 1.12's import block identity argument) the object's
// resource identity, an object whose attributes the block set.
type importRef struct {
	id       string
	identity cty.Value
}

func (k importRef) byIdentity() bool { return k.identity != cty.NilVal }

// importObject asks the provider for the object.
func (k importRef) importObject(ctx context.Context, t *lifecycle.Target) (*states.Object, diags.Diagnostics) {
	if k.byIdentity() {
		return lifecycle.ImportIdentity(ctx, t, k.identity)
	}
	return lifecycle.Import(ctx, t, k.id)
}

// label is how the progress lines name the object (plans.Importing's
// Label).
func (k importRef) label() string { return k.importing().Label() }

// importing is the plan's record of the import.
func (k importRef) importing() *plans.Importing {
	if !k.byIdentity() {
		return &plans.Importing{ID: k.id}
	}
	src, err := ctyjson.Marshal(k.identity, k.identity.Type())
	if err != nil || !json.Valid(src) {
		return &plans.Importing{}
	}
	return &plans.Importing{Identity: src}
}

// importIdentity evaluates a block's identity: a known object, neither
// null nor sensitive, whose attributes are those of the resource type's
// identity (the provider checks which are required).
func importIdentity(scope *lang.Scope, expr hcl.Expression) (cty.Value, diags.Diagnostics) {
	v, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	bad := func(detail string) (cty.Value, diags.Diagnostics) {
		return cty.NilVal, ds.Append(diags.At(expr.Range(), "Invalid import identity argument", detail))
	}
	switch {
	case v.IsNull():
		return bad("The import identity cannot be null.")
	case !v.Type().IsObjectType() && !v.Type().IsMapType():
		return bad("The import identity must be an object of the resource type's identity attributes.")
	case !v.IsWhollyKnown():
		return bad("The import block \"identity\" argument depends on resource attributes that cannot be determined until apply, so Cairn cannot plan to import this resource.")
	case marks.Contains(v):
		return bad("The import identity cannot be sensitive.")
	}
	return cty.ObjectVal(v.AsValueMap()), ds
}
