package diff

import (
	"fmt"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/pulumi/propval"
)

// Input is one resource's planned change.
type Input struct {
	// Schema is the resource type's schema; Prior and Planned are values
	// of its implied type.
	Schema *configschema.Block
	// Prior is the state before the change; null for a create.
	Prior cty.Value
	// Planned is the provider's planned state; unknowns count as changes.
	Planned cty.Value
	// RequiresReplace are the paths whose change forces replacement.
	RequiresReplace []cty.Path
	// DeleteBeforeReplace asks for the old object to go first when the
	// change is a replacement.
	DeleteBeforeReplace bool
}

// Response returns the DiffResponse for in. Marks are ignored: the diff
// names paths, never values. The error is for the adapter's author: prior
// and planned not of the schema's type.
func Response(in Input) (*pulumirpc.DiffResponse, error) {
	ty := in.Schema.ImpliedType()
	prior, planned := marks.Strip(in.Prior), marks.Strip(in.Planned)
	// Conformance, not equality: a dynamic attribute's value has its own
	// type (terraform_data's input may be a string).
	if len(prior.Type().TestConformance(ty)) > 0 || len(planned.Type().TestConformance(ty)) > 0 {
		return nil, fmt.Errorf("diff: prior %s and planned %s must both be %s",
			prior.Type().FriendlyName(), planned.Type().FriendlyName(), ty.FriendlyName())
	}
	w := walker{replace: in.RequiresReplace, detailed: map[string]*pulumirpc.PropertyDiff{}, changed: map[string]bool{}}
	resp := &pulumirpc.DiffResponse{HasDetailedDiff: true, Changes: pulumirpc.DiffResponse_DIFF_NONE}
	for _, name := range sortedAttrs(ty) {
		key := string(propval.PropertyKey(name))
		step := cty.GetAttrStep{Name: name}
		w.value(attr(prior, name), attr(planned, name), ty.AttributeType(name),
			cty.Path{step}, resource.PropertyPath{key}, key)
		if w.changed[key] {
			resp.Diffs = append(resp.Diffs, key)
		} else {
			resp.Stables = append(resp.Stables, key)
		}
	}
	resp.Replaces = w.replaces(ty)
	resp.DetailedDiff = w.detailed
	if len(resp.Diffs) > 0 {
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	resp.DeleteBeforeReplace = in.DeleteBeforeReplace && len(resp.Replaces) > 0
	return resp, nil
}

// attr reads attribute name of an object that may be null (a create).
func attr(v cty.Value, name string) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return cty.NullVal(v.Type().AttributeType(name))
	}
	return v.GetAttr(name)
}

func sortedAttrs(ty cty.Type) []string {
	names := make([]string, 0, len(ty.AttributeTypes()))
	for n := range ty.AttributeTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
