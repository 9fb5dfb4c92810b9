package marks

import "github.com/zclconf/go-cty/cty"

// EphemeralPaths returns the paths in v that carry the ephemeral mark.
// An unmarked v costs one look and no allocation.
func EphemeralPaths(v cty.Value) []cty.Path {
	if !Contains(v) {
		return nil
	}
	_, pvm := v.UnmarkDeepWithPaths()
	var out []cty.Path
	for _, pm := range pvm {
		if pm.Marks.Has(Ephemeral) {
			out = append(out, pm.Path)
		}
	}
	return out
}

// AnyEphemeral reports whether any of the marked paths is ephemeral.
func AnyEphemeral(pvm []cty.PathValueMarks) bool {
	for _, pm := range pvm {
		if pm.Marks.Has(Ephemeral) {
			return true
		}
	}
	return false
}

// IsEphemeral reports whether v or any value nested in it is ephemeral.
func IsEphemeral(v cty.Value) bool { return len(EphemeralPaths(v)) > 0 }
