package awscc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ccResource is one CloudFormation type as a managed resource: cfnschema's
// schema (plus a timeouts block and, for taggable types, tags_all), and
// Create, Read, Update, Delete and Import through Cloud Control.
type ccResource struct {
	t *cfnschema.ResourceType
	// rt is the configured provider's runtime; nil until configured.
	rt *runtime
}

var (
	_ resource.Resource                = (*ccResource)(nil)
	_ resource.ResourceWithConfigure   = (*ccResource)(nil)
	_ resource.ResourceWithImportState = (*ccResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*ccResource)(nil)
	_ resource.ResourceWithIdentity    = (*ccResource)(nil)
)

func (r *ccResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.t.TerraformName
}

func (r *ccResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	s := r.t.ResourceSchema()
	if _, taken := s.Attributes["timeouts"]; !taken {
		s.Blocks = map[string]schema.Block{"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true})}
	}
	addTagsAll(r.t, &s)
	addWriteOnlyTwins(r.t, &s)
	resp.Schema = s
}

func (r *ccResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.rt, _ = req.ProviderData.(*runtime)
}

// ready reports whether the provider is configured, as it always is once
// the engine calls an operation; the error is for provider developers.
func (r *ccResource) ready(ds *diag.Diagnostics) bool {
	if r.rt == nil {
		ds.AddError("Provider not configured", "The awscc provider was not configured before "+r.t.TerraformName+" was used. This is a bug in the engine.")
	}
	return r.rt != nil
}

// attributeGetter is a plan or a state.
type attributeGetter interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}

// timeout returns an operation's time limit: the timeouts block's, else
// the schema handler's timeoutInMinutes, else two hours.
func (r *ccResource) timeout(ctx context.Context, obj attributeGetter, op string, ds *diag.Diagnostics) time.Duration {
	def := defaultOperationTimeout
	if h, ok := r.t.Handlers[op]; ok && h.Timeout > 0 {
		def = h.Timeout
	}
	var tv timeouts.Value
	if ds.Append(obj.GetAttribute(ctx, path.Root("timeouts"), &tv)...); ds.HasError() {
		return def
	}
	var d time.Duration
	var more diag.Diagnostics
	switch op {
	case "create":
		d, more = tv.Create(ctx, def)
	case "update":
		d, more = tv.Update(ctx, def)
	default:
		d, more = tv.Delete(ctx, def)
	}
	ds.Append(more...)
	return d
}

func (r *ccResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !r.ready(&resp.Diagnostics) {
		return
	}
	ctx, done := r.rt.operationContext(ctx, "create", r.timeout(ctx, req.Plan, "create", &resp.Diagnostics))
	defer done()
	planned := req.Plan.Raw
	doc, err := desiredState(r.t.Attributes, withTagsSent(r.t, planned), toOptions{})
	if err != nil {
		resp.Diagnostics.AddError("Cannot build the desired state", err.Error())
		return
	}
	withTwins(doc, twinValues(r.t, req.Config.Raw, tftypes.Value{}, planned))
	pend := pendingCreate{ClientToken: clientToken()}
	out, err := r.rt.api.CreateResource(ctx, &cloudcontrol.CreateResourceInput{
		TypeName: &r.t.TypeName, DesiredState: aws.String(jsonText(doc)), ClientToken: &pend.ClientToken, RoleArn: r.rt.role(),
	})
	if err != nil {
		resp.Diagnostics.AddError("Cannot create "+r.t.TypeName, r.rt.callError(ctx, err))
		return
	}
	if ev := out.ProgressEvent; ev != nil && ev.RequestToken != nil && unresolved(ev) {
		pend.RequestToken, pend.Identifier = *ev.RequestToken, aws.ToString(ev.Identifier)
		pend.report(ctx)
	}
	ev, err := r.rt.await(ctx, out.ProgressEvent)
	id := aws.ToString(ev.Identifier)
	if id != "" {
		planned = setAttr(planned, "id", tftypes.NewValue(tftypes.String, id))
	}
	if err == nil {
		if err = r.settle(ctx, id, planned, &resp.State); err == nil {
			r.setIdentity(ctx, resp.Identity, id)
			return
		}
	}
	if pend.RequestToken != "" && (unresolved(ev) || ev.OperationStatus == cctypes.OperationStatusSuccess) {
		r.keepPending(ctx, pend, id, planned, err, resp)
		return
	}
	resp.Diagnostics.AddError("Cannot create "+r.t.TypeName, r.rt.createFailure(ctx, id, err))
	if id != "" {
		// The object exists: record what is known, so the engine keeps
		// it tainted rather than forgetting it.
		resp.State.Raw = fillUnknowns(planned, tftypes.Value{})
	}
}

// keepPending answers a create Cloud Control accepted whose outcome Cairn
// could not learn (polling failed, the request outlived the operation, or
// the resource could not be read after it was made): the planned object,
// with null where nothing is known, and the pending create in its private
// state, with the error. An engine that records accepted creates keeps it
// as it is (re-reported here if the identifier became known meanwhile);
// Terraform keeps it tainted. Either way the next refresh follows the
// request to its end, and no second resource is created meanwhile.
func (r *ccResource) keepPending(ctx context.Context, pend pendingCreate, id string, planned tftypes.Value, err error, resp *resource.CreateResponse) {
	if id != pend.Identifier {
		pend.Identifier = id
		pend.report(ctx)
	}
	resp.State.Raw = fillUnknowns(planned, tftypes.Value{})
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, pendingKey, pend.body())...)
	next := "It is recorded as pending: the next plan or apply follows the request to its end and records the resource it made, instead of creating another."
	if providers.CreateRecorderFrom(ctx) == nil {
		next = "It is recorded as tainted: the next refresh follows the request to its end, and the next apply replaces the resource it made."
	}
	resp.Diagnostics.AddError("Cannot create "+r.t.TypeName, fmt.Sprintf("%s\n\nCloud Control accepted the create (request %s), but its outcome is not known. %s",
		r.rt.callError(ctx, err), pend.RequestToken, next))
}

// settle reads the resource after a create or update and sets state to
// planned with every unknown filled from the model read.
func (r *ccResource) settle(ctx context.Context, id string, planned tftypes.Value, state *tfsdk.State) error {
	props, err := r.rt.getProperties(ctx, r.t.TypeName, id)
	if err != nil {
		return fmt.Errorf("reading the resource after the request: %s", r.rt.callError(ctx, err))
	}
	// What GetResource said now replaces what a page said before.
	r.rt.lists.store(r.t.TypeName, id, props)
	model, err := decodeModel(props)
	if err != nil {
		return fmt.Errorf("reading the resource model: %w", err)
	}
	ty := planned.Type().(tftypes.Object)
	remote, err := stateFromJSON(r.t.Attributes, ty, model, planned)
	if err != nil {
		return fmt.Errorf("reading the resource model: %w", err)
	}
	remote = r.splitTags(remote, planned)
	state.Raw = fillUnknowns(planned, remote)
	return nil
}

func (rt *runtime) createFailure(ctx context.Context, id string, err error) string {
	msg := rt.callError(ctx, err)
	if id == "" {
		return msg
	}
	return fmt.Sprintf("%s\n\nThe resource exists with identifier %q: it is recorded as tainted, so the next apply replaces it.", msg, id)
}

// callError renders an API error, with the reason when the operation's
// context ended (timeout or stop) rather than the SDK's generic text.
func (rt *runtime) callError(ctx context.Context, err error) string {
	if cause := rt.cause(ctx); cause != nil && !errors.Is(err, cause) {
		return fmt.Sprintf("%v (%v)", cause, err)
	}
	return err.Error()
}

func (r *ccResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !r.ready(&resp.Diagnostics) {
		return
	}
	ctx, done := r.rt.operationContext(ctx, "read", defaultOperationTimeout)
	defer done()
	prior := req.State.Raw
	pend, pending, ds := pendingFrom(ctx, req.Private)
	resp.Diagnostics.Append(ds...)
	if resp.Diagnostics.HasError() {
		return
	}
	if pending {
		var ok bool
		if prior, ok = r.resumeCreate(ctx, pend, prior, resp); !ok {
			return
		}
	}
	var id string
	resp.Diagnostics.Append((&tfsdk.State{Schema: req.State.Schema, Raw: prior}).GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	model, err := r.rt.readModel(ctx, r.t, id)
	if isNotFound(err) {
		resp.Diagnostics.AddWarning("Resource not found", fmt.Sprintf("%s %q no longer exists; it is removed from state.", r.t.TypeName, id))
		resp.State.RemoveResource(ctx)
		// The framework wants an identity even with the object gone.
		r.setIdentity(ctx, resp.Identity, id)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read "+r.t.TypeName, r.rt.callError(ctx, err))
		return
	}
	v, err := stateFromJSON(r.t.Attributes, prior.Type().(tftypes.Object), model, prior)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read "+r.t.TypeName, "reading the resource model: "+err.Error())
		return
	}
	resp.State.Raw = r.splitTags(v, prior)
	r.setIdentity(ctx, resp.Identity, id)
}

// deleteTarget returns the identifier of the resource to delete; for an
// object whose create is pending, that of the resource the create made,
// once followed to its end. ok is false when there is nothing to delete
// or the identifier cannot be learned (an error says why).
func (r *ccResource) deleteTarget(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) (string, bool) {
	pend, pending, ds := pendingFrom(ctx, req.Private)
	resp.Diagnostics.Append(ds...)
	if ds.HasError() {
		return "", false
	}
	if pending {
		id, made, _, err := r.rt.resume(ctx, pend)
		if err != nil {
			resp.Diagnostics.AddError("Cannot delete "+r.t.TypeName, err.Error())
		}
		return id, made && err == nil
	}
	var id string
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	return id, !resp.Diagnostics.HasError()
}

// resumeCreate follows the pending create an object records to its end.
// It returns the object with the identifier of the resource the create
// made, its pending record dropped, ready to be read; ok is false when
// the read is over: the create made nothing (the object is removed, with
// a warning saying why) or its outcome still cannot be learned (an error;
// the object stays pending).
func (r *ccResource) resumeCreate(ctx context.Context, pend pendingCreate, prior tftypes.Value, resp *resource.ReadResponse) (tftypes.Value, bool) {
	id, made, failed, err := r.rt.resume(ctx, pend)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read "+r.t.TypeName, err.Error()+"\n\nThe object stays recorded as pending; the next plan or apply tries again.")
		return prior, false
	}
	if !made {
		if failed == nil {
			failed = errors.New("it named no resource")
		}
		resp.Diagnostics.AddWarning("Resource not created", fmt.Sprintf("The create of this %s that Cloud Control accepted (request %s) ended without a resource: %v. It is removed from state; the next apply creates it.", r.t.TypeName, pend.RequestToken, failed))
		resp.State.RemoveResource(ctx)
		r.setIdentity(ctx, resp.Identity, "")
		return prior, false
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, pendingKey, nil)...)
	if failed != nil {
		// As a create that fails in the run that made it leaves a tainted
		// object, this one is kept to be replaced (see planReplaceFailed).
		resp.Diagnostics.AddWarning("Create failed after naming the resource", fmt.Sprintf("The create of %s %q was followed to its end: %v. The resource it named is kept in state, and the next plan replaces it, as it would replace a create that failed in the run that made it.", r.t.TypeName, id, failed))
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, failedKey, pend.body())...)
	}
	return withID(prior, id), true
}

func (r *ccResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if !r.ready(&resp.Diagnostics) {
		return
	}
	ctx, done := r.rt.operationContext(ctx, "update", r.timeout(ctx, req.Plan, "update", &resp.Diagnostics))
	defer done()
	prior, planned := req.State.Raw, req.Plan.Raw
	if pend, pending, ds := pendingFrom(ctx, req.Private); pending || ds.HasError() {
		resp.Diagnostics.Append(ds...)
		if pending {
			resp.Diagnostics.AddError("Cannot update "+r.t.TypeName, fmt.Sprintf("The create of this object (Cloud Control request %s) has not been followed to its end, so which resource it made is not known yet. Run a plan or apply that refreshes (without -refresh=false) to record it first.", pend.RequestToken))
		}
		resp.State.Raw = prior
		return
	}
	var id string
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	planned = setAttr(planned, "id", tftypes.NewValue(tftypes.String, id))
	patch, err := updatePatch(r.t.Attributes, withTagsSent(r.t, prior), withTagsSent(r.t, planned))
	if err == nil {
		patch, err = patchWithTwins(patch, twinValues(r.t, req.Config.Raw, prior, planned), prior, planned)
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot build the update patch", err.Error())
		return
	}
	if patch != "[]" {
		r.rt.lists.forget(r.t.TypeName, id)
		out, err := r.rt.api.UpdateResource(ctx, &cloudcontrol.UpdateResourceInput{
			TypeName: &r.t.TypeName, Identifier: &id, PatchDocument: &patch, ClientToken: aws.String(clientToken()), RoleArn: r.rt.role(),
		})
		if err == nil {
			_, err = r.rt.await(ctx, out.ProgressEvent)
		}
		if err != nil {
			resp.Diagnostics.AddError("Cannot update "+r.t.TypeName, r.rt.callError(ctx, err))
			resp.State.Raw = prior
			return
		}
	}
	if err := r.settle(ctx, id, planned, &resp.State); err != nil {
		resp.Diagnostics.AddError("Cannot update "+r.t.TypeName, err.Error())
		resp.State.Raw = prior
		return
	}
	r.setIdentity(ctx, resp.Identity, id)
}

func (r *ccResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !r.ready(&resp.Diagnostics) {
		return
	}
	ctx, done := r.rt.operationContext(ctx, "delete", r.timeout(ctx, req.State, "delete", &resp.Diagnostics))
	defer done()
	id, ok := r.deleteTarget(ctx, req, resp)
	if !ok {
		return
	}
	r.rt.lists.forget(r.t.TypeName, id)
	out, err := r.rt.api.DeleteResource(ctx, &cloudcontrol.DeleteResourceInput{
		TypeName: &r.t.TypeName, Identifier: &id, ClientToken: aws.String(clientToken()), RoleArn: r.rt.role(),
	})
	if err == nil {
		_, err = r.rt.await(ctx, out.ProgressEvent)
	}
	// Gone already is what delete wants.
	if err != nil && !isNotFound(err) {
		resp.Diagnostics.AddError("Cannot delete "+r.t.TypeName, r.rt.callError(ctx, err))
	}
}

// ImportState takes the Cloud Control identifier as the import ID, or
// builds it from an identity (an import block's identity argument); the
// engine reads the resource next.
func (r *ccResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() {
		resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
		return
	}
	if !r.ready(&resp.Diagnostics) {
		return
	}
	id, ok := r.rt.identifierFromIdentity(ctx, r.t, req.Identity.Raw, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	r.setIdentity(ctx, resp.Identity, id)
}

// setIdentity sets an answer's identity (nil when the engine asked for
// none) to that of the object with identifier id, keeping what the prior
// identity knew that the runtime does not. With id empty (an object never
// made) only its place is known: account and region.
func (r *ccResource) setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id string) {
	if identity == nil {
		return
	}
	identity.Raw = r.rt.identityValue(ctx, r.t, id, identity.Raw)
}

// setAttr returns the object obj with attribute name set to v; obj
// unchanged when it has no such attribute or is not a known object.
func setAttr(obj tftypes.Value, name string, v tftypes.Value) tftypes.Value {
	if !obj.IsKnown() || obj.IsNull() {
		return obj
	}
	var m map[string]tftypes.Value
	if err := obj.As(&m); err != nil {
		return obj
	}
	if _, ok := m[name]; !ok {
		return obj
	}
	// As hands out the value's own map: copy it, values are immutable.
	out := make(map[string]tftypes.Value, len(m))
	for k, e := range m {
		out[k] = e
	}
	out[name] = v
	return tftypes.NewValue(obj.Type(), out)
}

// getAttr returns attribute name of obj, or a zero Value.
func getAttr(obj tftypes.Value, name string) tftypes.Value {
	if !obj.IsKnown() || obj.IsNull() {
		return tftypes.Value{}
	}
	var m map[string]tftypes.Value
	if err := obj.As(&m); err != nil {
		return tftypes.Value{}
	}
	return m[name]
}
