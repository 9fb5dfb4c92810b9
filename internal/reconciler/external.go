package reconciler

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// external is the ExternalClient of one managed resource: the engine's
// per-instance lifecycle (refresh, plan with its contract checks, apply,
// delete) run against a configured provider, with the desired
// configuration read from spec and the state kept in the workspace or
// rebuilt from the object.
type external struct {
	// providerKey names the configured provider instance t calls (the
	// digest of its settings): part of the desired state.
	providerKey string
	kind        *Kind
	kube        client.Client
	// live reads from the API server, past the cache; nil means kube.
	live  client.Reader
	ws    *Workspace
	all   *Workspaces
	t     *lifecycle.Target
	stats *Stats
}

var _ managed.ExternalClient = (*external)(nil)

// newExternal returns the client for m, whose provider is configured.
func newExternal(k *Kind, kube client.Client, all *Workspaces, p providers.Interface, m *Managed) *external {
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: k.TypeName, Name: m.GetNamespace() + "/" + m.GetName()}.
		Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey)
	return &external{kind: k, kube: kube, ws: all.Get(m.GetUID()), all: all, stats: &Stats{}, t: &lifecycle.Target{
		Addr:          addrs.AbsResourceInstanceObject{ResourceInstance: addr},
		Provider:      p,
		ProviderAddr:  k.Provider,
		Schema:        k.Schema.Block,
		SchemaVersion: k.Schema.Version,
	}}
}

func asManaged(mg resource.Managed) (*Managed, error) {
	m, ok := mg.(*Managed)
	if !ok {
		return nil, fmt.Errorf("reconciler: %T is not a Cairn managed resource", mg)
	}
	return m, nil
}

// Observe refreshes the external resource and plans against spec: it
// exists when the provider reads it, is up to date when the plan changes
// nothing. It records status.atProvider, the connection details and
// fields the provider filled in that spec leaves unset (late
// initialisation). While an asynchronous operation runs, the resource is
// reported existing and up to date so nothing else starts.
//
// A refreshed object identical to the one the last full observation
// found up to date, under the same desired state (see desiredKey), is up
// to date again: the plan and late initialisation are skipped, so a poll
// of a resource nothing changed costs its refresh and no more.
func (e *external) Observe(ctx context.Context, mg resource.Managed) (managed.ExternalObservation, error) {
	m, err := asManaged(mg)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	e.stats.Observations.Add(1)
	if op := e.ws.running(); op != nil {
		m.SetConditions(asyncCondition(op.kind))
		return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
	}
	if kind, opErr, ok := e.ws.finished(); ok && opErr != nil {
		return managed.ExternalObservation{}, fmt.Errorf("asynchronous %s failed: %w", kind, opErr)
	}
	name := meta.GetExternalName(m)
	if name == "" {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	prior, err := e.prior(ctx, m, name)
	if err != nil || prior == nil {
		return managed.ExternalObservation{ResourceExists: false}, err
	}
	obj, ds := lifecycle.Refresh(ctx, e.t, prior)
	if ds.HasErrors() {
		return managed.ExternalObservation{}, ds.Err()
	}
	if obj == nil {
		e.ws.setState(nil)
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if meta.WasDeleted(m) {
		e.ws.setState(obj)
		conn, err := e.observe(m, obj.Value)
		return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true, ConnectionDetails: conn}, err
	}
	config, err := e.desiredConfig(ctx, m, obj)
	if err != nil {
		// status.atProvider still shows what exists.
		e.ws.setState(obj)
		_, _ = e.observe(m, obj.Value)
		return managed.ExternalObservation{}, err
	}
	key := e.desiredKey(m, config)
	if e.ws.unchanged(obj, key) {
		e.stats.Unchanged.Add(1)
		conn, err := e.observe(m, obj.Value)
		m.SetConditions(xpv1.Available())
		return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true, ConnectionDetails: conn}, err
	}
	e.ws.setState(obj)
	conn, err := e.observe(m, obj.Value)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	upToDate, diff := true, ""
	if config != cty.NilVal {
		e.stats.Planned.Add(1)
		if upToDate, diff, err = e.upToDate(ctx, obj, config); err != nil {
			return managed.ExternalObservation{}, err
		}
	}
	lateInit := e.lateInitialize(m, obj.Value)
	if upToDate && (!lateInit || !mayLateInitialize(m.GetManagementPolicies())) {
		// The next observation that finds the same object under the same
		// desired state reaches this outcome again; a late
		// initialisation crossplane-runtime persists changes spec (and
		// the generation) first.
		e.ws.settle(obj, key)
	}
	m.SetConditions(xpv1.Available())
	return managed.ExternalObservation{
		ResourceExists: true, ResourceUpToDate: upToDate, ResourceLateInitialized: lateInit,
		ConnectionDetails: conn, Diff: diff,
	}, nil
}

// mayChange reports whether the management policies let the controller
// change the external resource; when they do not (ObserveOnly), spec need
// not describe it fully and is not planned.
func mayChange(p xpv1.ManagementPolicies) bool {
	for _, a := range p {
		if a == xpv1.ManagementActionAll || a == xpv1.ManagementActionUpdate {
			return true
		}
	}
	return false
}

// upToDate plans the desired configuration against the refreshed
// object. A plan that would replace the object is refused: the controller
// never destroys an external resource to change it (Terrajet injects
// prevent_destroy for the same reason), so the user has to undo the
// change or delete the managed resource.
func (e *external) upToDate(ctx context.Context, obj *states.Object, config cty.Value) (bool, string, error) {
	planned, ds := lifecycle.Plan(ctx, e.t, obj.Value, obj.Private, config)
	if ds.HasErrors() {
		return false, "", ds.Err()
	}
	prior, _ := marks.Unmark(obj.Value)
	next, _ := marks.Unmark(planned.Value)
	if next.IsWhollyKnown() && next.RawEquals(prior) {
		return true, "", nil
	}
	if paths := replacing(prior, next, planned.RequiresReplace); len(paths) > 0 {
		return false, "", &ReplaceRefusedError{Fields: paths}
	}
	return false, changedFields(prior, next), nil
}

// Create creates the external resource from spec (forProvider with
// initProvider's fields added). The external name is set on the object
// before Create returns, so crossplane-runtime records it with the
// create-succeeded annotation: a restarted controller finds the resource
// rather than creating a second one. An asynchronous kind starts the
// create and returns; its result reaches the object when it ends.
func (e *external) Create(ctx context.Context, mg resource.Managed) (managed.ExternalCreation, error) {
	m, err := asManaged(mg)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	e.stats.Creates.Add(1)
	m.SetConditions(xpv1.Creating())
	config, err := e.desired(ctx, m, cty.NilVal)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	null := cty.NullVal(e.kind.Schema.Block.ImpliedType())
	if e.kind.Async {
		return managed.ExternalCreation{}, e.startAsync(m, "create", null, nil, config)
	}
	obj, err := e.apply(ctx, null, nil, config)
	if obj != nil {
		if nerr := e.recordIdentity(m, obj); nerr != nil && err == nil {
			err = nerr
		}
	}
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	conn, err := e.observe(m, obj.Value)
	return managed.ExternalCreation{ConnectionDetails: conn}, err
}

// Update applies spec to the external resource.
func (e *external) Update(ctx context.Context, mg resource.Managed) (managed.ExternalUpdate, error) {
	m, err := asManaged(mg)
	if err != nil {
		return managed.ExternalUpdate{}, err
	}
	e.stats.Updates.Add(1)
	prior := e.ws.State()
	if prior == nil {
		return managed.ExternalUpdate{}, fmt.Errorf("no observed state to update from; the next observation will retry")
	}
	config, err := e.desired(ctx, m, prior.Value)
	if err != nil {
		return managed.ExternalUpdate{}, err
	}
	if e.kind.Async {
		return managed.ExternalUpdate{}, e.startAsync(m, "update", prior.Value, prior.Private, config)
	}
	obj, err := e.apply(ctx, prior.Value, prior.Private, config)
	if obj != nil {
		setPrivate(m, obj.Private)
	}
	if err != nil {
		return managed.ExternalUpdate{}, err
	}
	conn, err := e.observe(m, obj.Value)
	return managed.ExternalUpdate{ConnectionDetails: conn}, err
}

// Delete deletes the external resource.
func (e *external) Delete(ctx context.Context, mg resource.Managed) (managed.ExternalDelete, error) {
	m, err := asManaged(mg)
	if err != nil {
		return managed.ExternalDelete{}, err
	}
	e.stats.Deletes.Add(1)
	m.SetConditions(xpv1.Deleting())
	prior := e.ws.State()
	if prior == nil {
		return managed.ExternalDelete{}, fmt.Errorf("no observed state to delete; the next observation will retry")
	}
	if e.kind.Async {
		return managed.ExternalDelete{}, e.startAsync(m, "delete", prior.Value, prior.Private, cty.NilVal)
	}
	if ds := lifecycle.Delete(ctx, e.t, prior.Value, prior.Private); ds.HasErrors() {
		return managed.ExternalDelete{}, ds.Err()
	}
	e.ws.setState(nil)
	return managed.ExternalDelete{}, nil
}

// Disconnect implements managed.ExternalClient; the provider stays
// configured for other managed resources.
func (e *external) Disconnect(context.Context) error { return nil }

// apply plans config against prior and applies it. A provider error may
// come with the object it created anyway; it is returned with the error
// so its identity is kept.
func (e *external) apply(ctx context.Context, prior cty.Value, private []byte, config cty.Value) (*states.Object, error) {
	planned, ds := lifecycle.Plan(ctx, e.t, prior, private, config)
	if ds.HasErrors() {
		return nil, ds.Err()
	}
	applied, ads := lifecycle.Apply(ctx, e.t, planned)
	var obj *states.Object
	if applied != nil && !applied.Value.IsNull() {
		obj = &states.Object{Value: applied.Value, Private: applied.Private, Status: states.ObjectReady}
		if ads.HasErrors() {
			obj.Status = states.ObjectTainted
		}
	}
	e.ws.setState(obj)
	if ads.HasErrors() {
		return obj, ads.Err()
	}
	return obj, nil
}

// recordIdentity sets the external name and private state an applied
// object implies on m.
func (e *external) recordIdentity(m *Managed, obj *states.Object) error {
	name, err := e.kind.ExternalName.fromState(obj.Value)
	if err != nil {
		return fmt.Errorf("the created resource's external name: %w", err)
	}
	meta.SetExternalName(m, name)
	setPrivate(m, obj.Private)
	return nil
}
