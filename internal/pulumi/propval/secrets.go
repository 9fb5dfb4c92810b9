package propval

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// CarrySecrets returns out with the sensitive mark at every path where in
// has it and out has a value, so that a secret input keeps the output
// derived from it secret (Pulumi's rule: a provider must not reveal what it
// was given as a secret). Where the path runs into a set or leaves out's
// shape, the nearest enclosing value of out is marked instead. A value
// with no marks in in returns out unchanged.
func CarrySecrets(out, in cty.Value) cty.Value {
	_, pvm := in.UnmarkDeepWithPaths()
	if len(pvm) == 0 {
		return out
	}
	var marks []cty.PathValueMarks
	for _, pm := range pvm {
		if _, ok := pm.Marks[configschema.SensitiveMark]; !ok {
			continue
		}
		marks = append(marks, cty.PathValueMarks{
			Path:  reachable(out, pm.Path),
			Marks: cty.NewValueMarks(configschema.SensitiveMark),
		})
	}
	return out.MarkWithPaths(marks)
}

// reachable returns the longest prefix of path that names a value in v
// whose parent is not a set (set elements cannot be marked one by one).
func reachable(v cty.Value, path cty.Path) cty.Path {
	cur, _ := v.UnmarkDeep()
	for i, step := range path {
		if !cur.IsKnown() || cur.IsNull() || cur.Type().IsSetType() {
			return path[:i]
		}
		next, err := step.Apply(cur)
		if err != nil {
			return path[:i]
		}
		cur = next
	}
	return path
}
