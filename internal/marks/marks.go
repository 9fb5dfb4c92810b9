package marks

import "github.com/zclconf/go-cty/cty"

// Contains reports whether v or any value nested in it carries a mark.
func Contains(v cty.Value) bool {
	if v.IsMarked() {
		return true
	}
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if Contains(v.GetAttr(name)) {
				return true
			}
		}
	case ty.IsListType() || ty.IsMapType() || ty.IsSetType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if Contains(e) {
				return true
			}
		}
	}
	return false
}

// Unmark returns v with every mark removed and the paths that had marks.
// An unmarked v is returned as is, without copying.
func Unmark(v cty.Value) (cty.Value, []cty.PathValueMarks) {
	if !Contains(v) {
		return v, nil
	}
	return v.UnmarkDeepWithPaths()
}

// Strip returns v with every mark removed.
func Strip(v cty.Value) cty.Value {
	u, _ := Unmark(v)
	return u
}

// Apply re-applies marks at paths; nothing to apply returns v unchanged.
func Apply(v cty.Value, pvm []cty.PathValueMarks) cty.Value {
	if len(pvm) == 0 {
		return v
	}
	return v.MarkWithPaths(pvm)
}

// Paths returns the paths of pvm, for redacting messages.
func Paths(pvm []cty.PathValueMarks) []cty.Path {
	if len(pvm) == 0 {
		return nil
	}
	out := make([]cty.Path, len(pvm))
	for i, pm := range pvm {
		out[i] = pm.Path
	}
	return out
}
