package cfnschema

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
)

// multiset keeps the prior list when the planned list holds the same
// elements in another order. It goes on arrays whose schema says
// insertionOrder is false: the service may return them in any order, and
// order-only differences are not changes.
type multiset struct{}

var _ planmodifier.List = multiset{}

func (multiset) Description(context.Context) string {
	return "a reordering of the prior elements is not a change"
}

func (m multiset) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (multiset) PlanModifyList(_ context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.StateValue.IsNull() || req.StateValue.IsUnknown() || req.PlanValue.IsNull() || req.PlanValue.IsUnknown() {
		return
	}
	planned, prior := req.PlanValue.Elements(), req.StateValue.Elements()
	if len(planned) != len(prior) {
		return
	}
	used := make([]bool, len(prior))
	for _, p := range planned {
		found := false
		for j, s := range prior {
			if !used[j] && p.Equal(s) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return
		}
	}
	resp.PlanValue = req.StateValue
}
