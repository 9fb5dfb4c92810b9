package server

import (
	"context"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/pulumi/propval"
)

// childAnswer is what Construct decided for one resource instance of a
// module: its properties (inputs and outputs alike: the planned or new
// object), its ID and its diff.
type childAnswer struct {
	props *structpb.Struct
	id    string
	diff  *pulumirpc.DiffResponse
}

// newChildAnswer turns an instance of a plan (preview) or an apply into
// the answers for its resource.
func newChildAnswer(inst modulerun.Instance, preview bool) (*childAnswer, error) {
	conv := propval.Converter{Block: inst.Schema}
	pm, err := conv.FromCty(inst.After)
	if err != nil {
		return nil, err
	}
	props, err := marshal(pm)
	if err != nil {
		return nil, err
	}
	a := &childAnswer{props: props, diff: childDiff(inst)}
	if id := inst.After.GetAttr("id"); inst.After.Type().HasAttribute("id") && id.IsKnown() && !id.IsNull() && id.Type() == cty.String {
		a.id = id.AsString()
	}
	if a.id == "" && !preview {
		a.id = inst.Addr.String()
	}
	return a, nil
}

// childDiff is the plan's action for the instance as Pulumi's diff: the
// top-level attributes that change, and those that force replacement.
func childDiff(inst modulerun.Instance) *pulumirpc.DiffResponse {
	switch inst.Action {
	case plans.NoOp, plans.Read:
		return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}
	}
	replace := inst.Action == plans.DeleteThenCreate || inst.Action == plans.CreateThenDelete || inst.Action == plans.Create
	forces := map[string]bool{}
	for _, p := range inst.ReplacePaths {
		if len(p) > 0 {
			if ga, ok := p[0].(cty.GetAttrStep); ok {
				forces[ga.Name] = true
			}
		}
	}
	resp := &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_SOME, HasDetailedDiff: true,
		DetailedDiff: map[string]*pulumirpc.PropertyDiff{}, DeleteBeforeReplace: inst.Action == plans.DeleteThenCreate}
	for _, name := range changedAttrs(inst.Before, inst.After) {
		key := string(propval.PropertyKey(name))
		kind := pulumirpc.PropertyDiff_UPDATE
		if replace && (forces[name] || len(forces) == 0) {
			kind = pulumirpc.PropertyDiff_UPDATE_REPLACE
			resp.Replaces = append(resp.Replaces, key)
		}
		resp.Diffs = append(resp.Diffs, key)
		resp.DetailedDiff[key] = &pulumirpc.PropertyDiff{Kind: kind}
	}
	if replace && len(resp.Replaces) == 0 {
		// Replaced with no attribute to blame (tainted, replace_triggered_by).
		resp.Replaces = []string{"id"}
		resp.DetailedDiff["id"] = &pulumirpc.PropertyDiff{Kind: pulumirpc.PropertyDiff_UPDATE_REPLACE}
	}
	return resp
}

// changedAttrs are the top-level attributes whose values differ between
// before and after (unknown after counts as a change), sorted.
func changedAttrs(before, after cty.Value) []string {
	before, _ = before.UnmarkDeep()
	after, _ = after.UnmarkDeep()
	if !after.Type().IsObjectType() || !after.IsKnown() || after.IsNull() {
		return nil
	}
	var out []string
	for name := range after.Type().AttributeTypes() {
		a := after.GetAttr(name)
		b := cty.NullVal(a.Type())
		if !before.IsNull() && before.IsKnown() && before.Type().HasAttribute(name) {
			b = before.GetAttr(name)
		}
		if !a.IsWhollyKnown() || !b.RawEquals(a) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// childResource answers a module instance's resource from what
// Construct decided in this process. Read keeps what Pulumi stored (the
// module's refresh is ModuleState's), and Delete does nothing: the
// module's apply, or ModuleState's destroy, deletes the object.
type childResource struct{ h *moduleHost }

var _ moduleResource = childResource{}

func (c childResource) answer(urn string) (*childAnswer, error) {
	if a := c.h.child(resource.URN(urn)); a != nil {
		return a, nil
	}
	return nil, failure("Module resource not constructed",
		"The resource "+urn+" belongs to a Terraform module component; it is planned only as part of that component's Construct, which has not run in this provider process.")
}

// Check takes the inputs as Construct made them.
func (childResource) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

// Diff answers with the plan's action for the instance. With no
// Construct in progress ("pulumi refresh" diffs what Read returned, the
// stored object itself) there is no change.
func (c childResource) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	if a := c.h.child(resource.URN(req.GetUrn())); a != nil {
		return a.diff, nil
	}
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
}

// Create returns the object the module's apply created (or, previewing,
// the planned one).
func (c childResource) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	a, err := c.answer(req.GetUrn())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: a.id, Properties: a.props}, nil
}

// Update returns the object after the module's apply.
func (c childResource) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	a, err := c.answer(req.GetUrn())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: a.props}, nil
}

// Read keeps the stored object.
func (childResource) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
}

// Delete does nothing: the module deletes its objects.
func (childResource) Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}
