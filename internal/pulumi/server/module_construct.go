package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/sync/errgroup"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/plans"
)

// childParallelism bounds the children registered at once.
const childParallelism = 16

// moduleRun is one Construct of a module component in progress.
type moduleRun struct {
	s    *Server
	req  *pulumirpc.ConstructRequest
	spec moduleSpec
	mon  pulumirpc.ResourceMonitorClient
	urn  resource.URN
	pkg  string
	// version and provider make the engine send the operations of what
	// Construct registers to this process: the version of the default
	// provider that constructs (see moduleHost.configured), or the
	// explicit provider the program gave for the package.
	version  string
	provider string
}

// constructModule runs spec's module as the component req asks for:
//
//  1. load the module and plan it against no state, so a module that
//     fails to load, a variable of the wrong type or a bad reference is
//     reported (at the module's file and line) before anything is
//     registered, and nothing is created;
//  2. register the component, and under it the ModuleState resource,
//     whose Diff or Create hands this process the module's prior state;
//  3. plan against it, and, unless previewing, apply when the plan
//     changes anything; the new state goes to ModuleState;
//  4. register each resource instance as a custom child, whose
//     operations this process answers from the plan or apply;
//  5. register the component's outputs: the module's, sensitive ones
//     secret.
func (s *Server) constructModule(ctx context.Context, req *pulumirpc.ConstructRequest, spec moduleSpec) (*pulumirpc.ConstructResponse, error) {
	vars, err := spec.values()
	if err != nil {
		return nil, failure("Invalid module inputs", err.Error())
	}
	mod, ds := modulerun.Load(ctx, spec.Source, s.modules.opts)
	if ds.HasErrors() {
		return nil, moduleError(spec.Source, ds)
	}
	// Load's warnings (a dev override) once; the plans' come with the
	// component.
	s.warnModule(ctx, "", spec.Source, ds)
	if _, ds := mod.Plan(ctx, plans.NormalMode, vars, nil); ds.HasErrors() {
		return nil, moduleError(spec.Source, ds)
	}
	mon, closeMon, err := dialMonitor(req.GetMonitorEndpoint())
	if err != nil {
		return nil, failure("Failed to reach the Pulumi engine", err.Error())
	}
	defer closeMon()
	r := &moduleRun{s: s, req: req, spec: spec, mon: mon, version: s.modules.providerVersion(),
		pkg: strings.SplitN(req.GetType(), ":", 2)[0]}
	r.provider = req.GetProviders()[r.pkg]
	if err := r.registerComponent(ctx); err != nil {
		return nil, err
	}
	res, children, err := r.run(ctx, mod, vars)
	defer s.modules.forget(r.urn, children)
	if err != nil {
		return nil, err
	}
	state, err := spec.componentOutputs(res.Outputs)
	if err != nil {
		return nil, failure("Invalid module outputs", err.Error())
	}
	if _, err := mon.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: string(r.urn), Outputs: state}); err != nil {
		return nil, fmt.Errorf("registering the outputs of %s: %w", r.urn, err)
	}
	return &pulumirpc.ConstructResponse{Urn: string(r.urn), State: state}, nil
}

func (r *moduleRun) registerComponent(ctx context.Context) error {
	req := r.req
	rr := &pulumirpc.RegisterResourceRequest{
		Type: req.GetType(), Name: req.GetName(), Parent: req.GetParent(), Object: emptyStruct(),
		Dependencies: req.GetDependencies(), Providers: req.GetProviders(), Aliases: req.GetAliases(),
		AcceptSecrets: true, AcceptResources: true,
	}
	if req.GetProtect() {
		p := true
		rr.Protect = &p
	}
	resp, err := r.mon.RegisterResource(ctx, rr)
	if err != nil {
		return fmt.Errorf("registering component %s: %w", req.GetName(), err)
	}
	r.urn = resource.URN(resp.GetUrn())
	return nil
}

// run registers ModuleState, plans (and applies) against the state it
// hands over, and registers the children. It returns the module's result
// and the URNs of the children it answered for.
func (r *moduleRun) run(ctx context.Context, mod *modulerun.Module, vars map[string]cty.Value) (*modulerun.Result, []resource.URN, error) {
	h := r.s.modules
	olds, news := h.promise(h.olds, r.urn), h.promise(h.news, r.urn)
	inputs, err := r.stateInputs()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stateDone := make(chan error, 1)
	go func() {
		_, err := r.mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{
			Type: r.pkg + ":index:" + moduleStateType, Name: r.req.GetName() + "-state", Parent: string(r.urn),
			Custom: true, Object: inputs, Version: r.version, Provider: r.provider, AcceptSecrets: true,
		})
		stateDone <- err
	}()
	old, err := awaitOld(ctx, olds, stateDone)
	if err != nil {
		return nil, nil, err
	}
	// Whatever happens next, ModuleState keeps the state as it stands.
	newState := old
	defer func() { news.set(newState) }()

	res, err := r.planApply(ctx, mod, vars, old, &newState)
	// ModuleState's Diff, Create or Update waits for the new state; it is
	// known now, before the children are registered.
	news.set(newState)
	if err != nil {
		<-stateDone
		return nil, nil, err
	}
	children, err := r.registerChildren(ctx, res.Instances)
	if serr := <-stateDone; serr != nil && err == nil {
		err = fmt.Errorf("registering the module state of %s: %w", r.urn, serr)
	}
	return res, children, err
}

// awaitOld waits for ModuleState's Diff or Create to hand over the old
// state, or for its registration to fail first.
func awaitOld(ctx context.Context, olds *promise[[]byte], stateDone <-chan error) ([]byte, error) {
	done := make(chan struct{})
	var old []byte
	var err error
	go func() {
		defer close(done)
		old, err = olds.get(ctx)
	}()
	select {
	case <-done:
		return old, err
	case serr := <-stateDone:
		if serr == nil {
			serr = errors.New("the engine registered it without asking for its state")
		}
		return nil, fmt.Errorf("registering the module state: %w", serr)
	}
}

// planApply plans against old and, unless previewing, applies a plan
// that changes anything, setting *newState to the state after apply
// (after a failed apply too, so what was created is kept).
func (r *moduleRun) planApply(ctx context.Context, mod *modulerun.Module, vars map[string]cty.Value, old []byte, newState *[]byte) (*modulerun.Result, error) {
	p, ds := mod.Plan(ctx, plans.NormalMode, vars, old)
	if ds.HasErrors() {
		return nil, moduleError(r.spec.Source, ds)
	}
	r.s.warnModule(ctx, r.urn, r.spec.Source, ds)
	if r.req.GetDryRun() || !p.Changes {
		return &p.Result, nil
	}
	res, ds := mod.Apply(ctx, p)
	if res != nil {
		*newState = res.State
	}
	if ds.HasErrors() {
		return nil, moduleError(r.spec.Source, ds)
	}
	r.s.warnModule(ctx, r.urn, r.spec.Source, ds)
	return res, nil
}

// stateInputs are ModuleState's inputs: the component it belongs to,
// and what it takes to plan the module again without Construct
// (refresh, destroy).
func (r *moduleRun) stateInputs() (*structpb.Struct, error) {
	pm := resource.PropertyMap{
		"moduleUrn": resource.NewStringProperty(string(r.urn)),
		"source":    resource.NewStringProperty(r.spec.Source.Source),
		"inputs":    resource.NewObjectProperty(r.spec.Vars),
	}
	if r.spec.Source.Version != "" {
		pm["version"] = resource.NewStringProperty(r.spec.Source.Version)
	}
	return marshal(pm)
}

// registerChildren registers each instance as a custom child of the
// component, with its answers in place first. A child is registered once
// those it depends on are (Pulumi's state must list a dependency before
// its dependents), at most childParallelism at once.
func (r *moduleRun) registerChildren(ctx context.Context, insts []modulerun.Instance) ([]resource.URN, error) {
	h := r.s.modules
	urns := make([]resource.URN, len(insts))
	byResource := map[string][]int{}
	for i, inst := range insts {
		urns[i] = childURN(r.req, r.urn, r.childType(inst), r.childName(inst))
		key := inst.Addr.ContainingResource().String()
		byResource[key] = append(byResource[key], i)
	}
	done := make([]chan struct{}, len(insts))
	for i := range done {
		done[i] = make(chan struct{})
	}
	sem := make(chan struct{}, childParallelism)
	g, gctx := errgroup.WithContext(ctx)
	for i, inst := range insts {
		a, err := newChildAnswer(inst, r.req.GetDryRun())
		if err != nil {
			return urns, fmt.Errorf("%s: %w", inst.Addr, err)
		}
		h.setChild(urns[i], a)
		var deps []int
		for _, d := range inst.DependsOn {
			deps = append(deps, byResource[d.String()]...)
		}
		rr := &pulumirpc.RegisterResourceRequest{
			Type: r.childType(inst), Name: r.childName(inst), Parent: string(r.urn), Custom: true, Object: a.props,
			Version: r.version, Provider: r.provider, AcceptSecrets: true, AcceptResources: true,
		}
		for _, d := range deps {
			rr.Dependencies = append(rr.Dependencies, string(urns[d]))
		}
		g.Go(func() error {
			for _, d := range deps {
				select {
				case <-done[d]:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			resp, err := r.mon.RegisterResource(gctx, rr)
			if err != nil {
				return fmt.Errorf("registering %s: %w", rr.Name, err)
			}
			if resource.URN(resp.GetUrn()) != urns[i] {
				return fmt.Errorf("registering %s: the engine named it %s, not %s", rr.Name, resp.GetUrn(), urns[i])
			}
			close(done[i])
			return nil
		})
	}
	return urns, g.Wait()
}

// childType is an instance's Pulumi type: its resource type in the
// package's tf module ("terraform:tf:terraform_data").
func (r *moduleRun) childType(inst modulerun.Instance) string {
	return r.pkg + ":" + moduleChildModule + ":" + inst.Type
}

// childName is an instance's Pulumi name: the component's name and the
// instance's address in the module ("net.terraform_data.replica[1]"),
// unique among every component's children.
func (r *moduleRun) childName(inst modulerun.Instance) string {
	return r.req.GetName() + "." + inst.Addr.String()
}
