package awscc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cairn-iac/cairn/internal/providers"
)

// pendingKey is the private-state key under which an object whose create
// Cloud Control accepted, but whose outcome is not known yet, carries what
// it takes to follow that create to its end.
const pendingKey = "cairn_pending_create"

// failedKey marks an object whose create, followed to its end after the
// run that made it, failed after the handler named the resource: the
// object exists but is not what was asked for, and is replaced, as
// Terraform replaces the tainted object of a create that failed.
const failedKey = "cairn_failed_create"

// pendingCreate is a create Cloud Control accepted: its request token,
// which GetResourceRequestStatus answers for (Cloud Control keeps request
// records for seven days), the ClientToken it was sent with, and the
// identifier once the handler named the resource.
type pendingCreate struct {
	RequestToken string `json:"request_token"`
	ClientToken  string `json:"client_token"`
	Identifier   string `json:"identifier,omitempty"`
}

func (p pendingCreate) body() []byte {
	b, _ := json.Marshal(p) // three strings: cannot fail
	return b
}

// private is the object's private data with only this key, in the
// encoding the plugin framework gives private state (a JSON object whose
// values are base64 of JSON), so the bytes reported while the create runs
// are the bytes the response carries.
func (p pendingCreate) private() []byte {
	b, _ := json.Marshal(map[string][]byte{pendingKey: p.body()})
	return b
}

// privateGetter is the part of the framework's private state a Read uses.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// pendingFrom returns the pending create an object's private state
// records, if any.
func pendingFrom(ctx context.Context, priv privateGetter) (pendingCreate, bool, diag.Diagnostics) {
	var p pendingCreate
	if priv == nil {
		return p, false, nil
	}
	b, ds := priv.GetKey(ctx, pendingKey)
	if ds.HasError() || len(b) == 0 {
		return p, false, ds
	}
	if err := json.Unmarshal(b, &p); err != nil || p.RequestToken == "" {
		ds.AddError("Invalid private state", fmt.Sprintf("The recorded pending create (%s) cannot be read; this is a bug in Cairn.", pendingKey))
		return p, false, ds
	}
	return p, true, ds
}

// report tells the engine, when it records accepted creates, that p was
// accepted, and returns once the record is durable. A record that cannot
// be made does not stop the create, which Cloud Control runs anyway: the
// run goes on as it would without a recorder.
func (p pendingCreate) report(ctx context.Context) {
	if rec := providers.CreateRecorderFrom(ctx); rec != nil {
		_ = rec(p.private())
	}
}

// unresolved reports whether a create ended without Cairn learning its
// outcome: the last event seen is not a final one (polling failed, or the
// request was still running when it was abandoned).
func unresolved(ev *cctypes.ProgressEvent) bool {
	switch ev.OperationStatus {
	case cctypes.OperationStatusSuccess, cctypes.OperationStatusFailed, cctypes.OperationStatusCancelComplete:
		return false
	}
	return true
}

// resume follows a pending create to its end (GetResourceRequestStatus,
// then waiting while it runs) and returns the identifier of the resource
// it made. made is false when the create failed without naming a
// resource, or was cancelled: there is no object. The error is set when
// the outcome still cannot be learned; the object then stays pending.
func (r *runtime) resume(ctx context.Context, p pendingCreate) (id string, made bool, failed error, err error) {
	out, err := r.api.GetResourceRequestStatus(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: &p.RequestToken})
	var unknownToken *cctypes.RequestTokenNotFoundException
	switch {
	case errors.As(err, &unknownToken) && p.Identifier != "":
		// The request's record expired, but the resource was named.
		return p.Identifier, true, nil, nil
	case errors.As(err, &unknownToken):
		return "", false, nil, fmt.Errorf("Cloud Control no longer knows create request %s (request records are kept for seven days), and it had not named a resource: whether it made one cannot be learned. If no such resource exists, remove the object with \"cairn state rm\"; if one does, import it with \"cairn import\"", p.RequestToken)
	case err != nil:
		return "", false, nil, fmt.Errorf("following create request %s: %s", p.RequestToken, r.callError(ctx, err))
	case out.ProgressEvent == nil:
		return "", false, nil, fmt.Errorf("following create request %s: no progress event", p.RequestToken)
	}
	ev := out.ProgressEvent
	if ev.Identifier == nil && p.Identifier != "" {
		ev.Identifier = aws.String(p.Identifier)
	}
	ev, failed = r.await(ctx, ev)
	if unresolved(ev) {
		return "", false, nil, fmt.Errorf("following create request %s: %w", p.RequestToken, failed)
	}
	id = aws.ToString(ev.Identifier)
	return id, id != "", failed, nil
}

// withID is the pending object with the identifier set, ready to be read.
func withID(v tftypes.Value, id string) tftypes.Value {
	return setAttr(v, "id", tftypes.NewValue(tftypes.String, id))
}

// planAfterCreate plans an object a create left behind unresolved: one
// still pending cannot be changed (the plan did not refresh it, so which
// resource it is is not known), and one whose create failed after naming
// the resource is replaced (its id planned unknown, which forces
// replacement).
func (r *ccResource) planAfterCreate(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || req.Private == nil {
		return
	}
	if pend, pending, ds := pendingFrom(ctx, req.Private); pending || ds.HasError() {
		resp.Diagnostics.Append(ds...)
		if pending {
			resp.Diagnostics.AddError("Create not followed to its end", fmt.Sprintf("The create of this %s (Cloud Control request %s) was accepted in an earlier run that ended before it finished, and this plan did not refresh it, so which resource it made is not known yet. Plan again with refresh (without -refresh=false) to record it.", r.t.TypeName, pend.RequestToken))
		}
		return
	}
	if b, ds := req.Private.GetKey(ctx, failedKey); ds.HasError() || len(b) == 0 {
		resp.Diagnostics.Append(ds...)
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringUnknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("id"))
}
