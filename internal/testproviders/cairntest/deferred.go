package cairntest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// deferPlan answers a plan of a thing with defer = true with a deferral
// (protocol 6.6) whatever the client's capabilities said: a provider that
// ignores deferral_allowed = false, which the client must report rather
// than take the plan as it is. The framework passes a resource's own
// deferral through unchecked.
func deferPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var deferIt types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("defer"), &deferIt)...)
	if deferIt.ValueBool() {
		resp.Deferred = &resource.Deferred{Reason: resource.DeferredReasonResourceConfigUnknown}
	}
}
