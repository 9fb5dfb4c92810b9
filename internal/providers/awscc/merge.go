package awscc

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fillUnknowns returns planned with every unknown replaced by the value at
// the same place in remote, the model read after a create or update.
// Known planned values are kept as planned even where the service
// normalised them: the plan contract requires it, and the next read shows
// the difference as drift. A set holding any unknown is taken whole from
// remote, since its elements cannot be matched by value. Whatever remote
// cannot fill becomes null, because state holds no unknowns.
func fillUnknowns(planned, remote tftypes.Value) tftypes.Value {
	ty := planned.Type()
	if !planned.IsKnown() {
		if remote.Type() != nil && remote.IsFullyKnown() {
			return remote
		}
		return tftypes.NewValue(ty, nil)
	}
	if planned.IsNull() || planned.IsFullyKnown() {
		return planned
	}
	remoteSet := remote.Type() != nil && remote.IsKnown() && !remote.IsNull()
	switch ty.(type) {
	case tftypes.Object, tftypes.Map:
		var p, r map[string]tftypes.Value
		_ = planned.As(&p)
		if remoteSet {
			_ = remote.As(&r)
		}
		out := make(map[string]tftypes.Value, len(p))
		for k, v := range p {
			out[k] = fillUnknowns(v, r[k])
		}
		return tftypes.NewValue(ty, out)
	case tftypes.List:
		var p, r []tftypes.Value
		_ = planned.As(&p)
		if remoteSet {
			_ = remote.As(&r)
		}
		out := make([]tftypes.Value, len(p))
		for i, v := range p {
			var rv tftypes.Value
			if i < len(r) {
				rv = r[i]
			}
			out[i] = fillUnknowns(v, rv)
		}
		return tftypes.NewValue(ty, out)
	case tftypes.Set:
		if remote.Type() != nil && remote.IsFullyKnown() {
			return remote
		}
	}
	return tftypes.NewValue(ty, nil)
}
