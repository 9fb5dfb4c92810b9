package server

import (
	"bytes"
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/plans"
)

// moduleStateID is the ID of every ModuleState resource: there is one
// per component, and nothing outside Pulumi's state names it.
const moduleStateID = "moduleState"

// stateResource is the ModuleState resource: its one output, state, is
// the module's Terraform state (a secret); it is how a component keeps
// state between runs. Diff and Create hand the old state to the
// Construct in progress and answer with the new one it decides; Read
// refreshes the module and Delete destroys it, as no Construct runs for
// "pulumi refresh" or "pulumi destroy".
type stateResource struct{ s *Server }

var _ moduleResource = stateResource{}

// Check takes the inputs as Construct made them.
func (stateResource) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

// Diff hands the old state to Construct and reports a change when the
// state Construct settles on differs.
func (r stateResource) Diff(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	si, err := readStateInputs(req.GetNews())
	if err != nil {
		return nil, err
	}
	old, err := stateOf(req.GetOlds())
	if err != nil {
		return nil, err
	}
	olds, news, ok := r.s.modules.pending(si.urn)
	if !ok {
		// No Construct in progress: a refresh compares what Read
		// returned, which is the state itself.
		return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
	}
	olds.set(old)
	next, err := news.get(ctx)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(old, next) {
		return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
	}
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_SOME, Diffs: []string{"state"},
		DetailedDiff: map[string]*pulumirpc.PropertyDiff{"state": {Kind: pulumirpc.PropertyDiff_UPDATE}}}, nil
}

// Create hands Construct an empty old state and returns the new one.
func (r stateResource) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	props, err := r.settled(ctx, req.GetProperties(), func(olds *promise[[]byte]) { olds.set(nil) })
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: moduleStateID, Properties: props}, nil
}

// Update returns the new state Construct settled on (Diff handed over
// the old one).
func (r stateResource) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	props, err := r.settled(ctx, req.GetNews(), nil)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

// settled waits for the state the Construct in progress for these
// inputs settles on and returns it as ModuleState's outputs; handOver,
// if set, first gives Construct the old state.
func (r stateResource) settled(ctx context.Context, in *structpb.Struct, handOver func(*promise[[]byte])) (*structpb.Struct, error) {
	si, err := readStateInputs(in)
	if err != nil {
		return nil, err
	}
	olds, news, ok := r.s.modules.pending(si.urn)
	if !ok {
		return nil, notConstructing(si.urn)
	}
	if handOver != nil {
		handOver(olds)
	}
	next, err := news.get(ctx)
	if err != nil {
		return nil, err
	}
	return stateOutputs(next)
}

// Read refreshes the module: a refresh-only plan of its state, applied.
func (r stateResource) Read(ctx context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	si, err := readStateInputs(req.GetInputs())
	if err != nil {
		return nil, err
	}
	old, err := stateOf(req.GetProperties())
	if err != nil {
		return nil, err
	}
	next, err := r.s.modules.runStored(ctx, si, plans.RefreshOnlyMode, old)
	if err != nil {
		return nil, err
	}
	props, err := stateOutputs(next)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: props, Inputs: req.GetInputs()}, nil
}

// Delete destroys every object of the module's state.
func (r stateResource) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	in := req.GetOldInputs()
	if in == nil {
		in = req.GetProperties()
	}
	si, err := readStateInputs(in)
	if err != nil {
		return nil, err
	}
	old, err := stateOf(req.GetProperties())
	if err != nil || len(old) == 0 {
		return &emptypb.Empty{}, err
	}
	if _, err := r.s.modules.runStored(ctx, si, plans.DestroyMode, old); err != nil {
		return nil, err
	}
	return &emptypb.Empty{}, nil
}

// runStored plans the module ModuleState's inputs name against old in
// mode and applies the plan, returning the new state.
func (h *moduleHost) runStored(ctx context.Context, si storedModule, mode plans.Mode, old []byte) ([]byte, error) {
	vars, err := si.spec.values()
	if err != nil {
		return nil, failure("Invalid module inputs", err.Error())
	}
	mod, ds := modulerun.Load(ctx, si.spec.Source, h.opts)
	if ds.HasErrors() {
		return nil, moduleError(si.spec.Source, ds)
	}
	p, ds := mod.Plan(ctx, mode, vars, old)
	if ds.HasErrors() {
		return nil, moduleError(si.spec.Source, ds)
	}
	res, ds := mod.Apply(ctx, p)
	if ds.HasErrors() {
		return nil, moduleError(si.spec.Source, ds)
	}
	return res.State, nil
}

// storedModule is what ModuleState's inputs say.
type storedModule struct {
	urn  resource.URN
	spec moduleSpec
}

func readStateInputs(st *structpb.Struct) (storedModule, error) {
	pm, err := unmarshal(st)
	if err != nil {
		return storedModule{}, err
	}
	u, ok := pm["moduleUrn"]
	if !ok || !u.IsString() {
		return storedModule{}, failure("Invalid module state", "The ModuleState resource has no moduleUrn input; it is made by a module component's Construct.")
	}
	spec, err := genericModuleSpec(pm)
	if err != nil {
		return storedModule{}, failure("Invalid module state", err.Error())
	}
	return storedModule{urn: resource.URN(u.StringValue()), spec: spec}, nil
}

// stateOf reads the state output; none is an empty state.
func stateOf(st *structpb.Struct) ([]byte, error) {
	pm, err := unmarshal(st)
	if err != nil {
		return nil, err
	}
	v, ok := pm["state"]
	for ok && v.IsSecret() {
		v = v.SecretValue().Element
	}
	if !ok || v.IsNull() {
		return nil, nil
	}
	if !v.IsString() {
		return nil, fmt.Errorf("the module state is a %s, not a string", v.TypeString())
	}
	return []byte(v.StringValue()), nil
}

// stateOutputs are ModuleState's outputs: the state, a secret (it holds
// every attribute of every object, sensitive ones included).
func stateOutputs(state []byte) (*structpb.Struct, error) {
	return marshal(resource.PropertyMap{"state": resource.MakeSecret(resource.NewStringProperty(string(state)))})
}

// notConstructing is the error of an operation that only a component's
// Construct in this process can answer.
func notConstructing(component resource.URN) error {
	return failure("Module component not constructed",
		"The module state of "+string(component)+" changes only as part of the component's Construct, which is not running in this provider process.")
}
