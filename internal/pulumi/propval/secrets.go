package propval

import (
	"strings"

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
	return markCopies(out.MarkWithPaths(marks), secretStrings(in))
}

// minContained is the shortest secret string looked for inside longer
// output strings; shorter ones (a "1", a "yes") would mark half the
// outputs, so they are matched only whole.
const minContained = 6

// secretStrings returns the known strings inside the sensitive values of
// in.
func secretStrings(in cty.Value) map[string]bool {
	out := map[string]bool{}
	_ = cty.Walk(in, func(_ cty.Path, v cty.Value) (bool, error) {
		if !v.HasMark(configschema.SensitiveMark) {
			return true, nil
		}
		u, _ := v.UnmarkDeep()
		_ = cty.Walk(u, func(_ cty.Path, e cty.Value) (bool, error) {
			if e.IsKnown() && !e.IsNull() && e.Type() == cty.String && e.AsString() != "" {
				out[e.AsString()] = true
			}
			return true, nil
		})
		return false, nil
	})
	return out
}

// markCopies marks sensitive every string of out that is one of the
// secret strings or contains a long one: a provider may copy a secret
// input into another attribute (awscc's tags into tags_all,
// terraform_data's input into output), which the path rule cannot see.
func markCopies(out cty.Value, secrets map[string]bool) cty.Value {
	if len(secrets) == 0 {
		return out
	}
	v, _ := cty.Transform(out, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		u, _ := v.Unmark()
		if !u.IsKnown() || u.IsNull() || u.Type() != cty.String || v.HasMark(configschema.SensitiveMark) {
			return v, nil
		}
		if isCopy(u.AsString(), secrets) {
			return v.Mark(configschema.SensitiveMark), nil
		}
		return v, nil
	})
	return v
}

func isCopy(s string, secrets map[string]bool) bool {
	if secrets[s] {
		return true
	}
	for secret := range secrets {
		if len(secret) >= minContained && strings.Contains(s, secret) {
			return true
		}
	}
	return false
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
