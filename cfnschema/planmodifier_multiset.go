package cfnschema

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// multiset keeps the prior list when the configuration holds the same
// elements in another order. It goes on arrays whose schema says
// insertionOrder is false: the service may return them in any order, and
// order-only differences are not changes.
//
// It compares the configuration, not the planned value, with prior state:
// once the resource has any change, the framework plans every unset
// computed member of every element as unknown (and a proposal made by
// index would give it the value of another element), so a planned element
// of objects with optional, computed members never equals its prior one.
// A null configured member of a computed attribute (elem's) therefore
// matches any prior value.
type multiset struct {
	// elem is the list's element type.
	elem *Type
}

var _ planmodifier.List = multiset{}

func (multiset) Description(context.Context) string {
	return "a reordering of the prior elements is not a change"
}

func (m multiset) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m multiset) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.StateValue.IsNull() || req.StateValue.IsUnknown() || req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() ||
		req.PlanValue.IsNull() || req.PlanValue.IsUnknown() {
		return
	}
	configured, prior := req.ConfigValue.Elements(), req.StateValue.Elements()
	if len(configured) != len(prior) {
		return
	}
	priorTF := make([]tftypes.Value, len(prior))
	for i, s := range prior {
		v, err := s.ToTerraformValue(ctx)
		if err != nil {
			return
		}
		priorTF[i] = v
	}
	used := make([]bool, len(prior))
	for _, c := range configured {
		cv, err := c.ToTerraformValue(ctx)
		if err != nil {
			return
		}
		found := false
		for j, s := range priorTF {
			if !used[j] && configMatches(m.elem, cv, s) {
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

// configMatches reports whether the configured value c of type t asks for
// nothing the prior value s does not hold: equal, member by member through
// objects, where a null member of a computed attribute matches anything.
// An unknown configured value matches nothing.
func configMatches(t *Type, c, s tftypes.Value) bool {
	if !c.IsKnown() {
		return false
	}
	if t == nil || t.Kind != KindObject || c.IsNull() || s.IsNull() || !s.IsKnown() {
		return c.Equal(s)
	}
	var cm, sm map[string]tftypes.Value
	if c.As(&cm) != nil || s.As(&sm) != nil {
		return false
	}
	for name, cv := range cm {
		a := t.Attributes.ByName(name)
		switch {
		case a == nil:
			if !cv.Equal(sm[name]) {
				return false
			}
		case cv.IsNull() && a.Computed:
		case !configMatches(a.Type, cv, sm[name]):
			return false
		}
	}
	return true
}
