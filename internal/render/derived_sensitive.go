package render

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// Terraform marks only what configuration marks and what a schema declares
// Sensitive, so a provider's copy of a secret is stored, and shown by
// `terraform show`, `state show` and plan diffs, in plain text:
// terraform_data's output copied from a sensitive input, an identifier or
// ARN built from a sensitive name. Cairn's human renderings go further and
// show as sensitive every value they can tell derives from a secret:
//
//   - attributes the schema declares Sensitive or Masked (awscc's
//     write-only properties);
//   - parts of a declared copy whose source is sensitive
//     (configschema.Copy: terraform_data's output, awscc's tags_all);
//   - any string of the object that is a secret the run knows of, or
//     contains one at least marks.MinContained long (marks.Secrets: the
//     id equal to a sensitive log_group_name, the ARN around it, and
//     another resource's input copied from that id; see secrets.go).
//
// The rule is for people only. The JSON documents (`show -json`, the plan
// document's sensitive_values) and the state's sensitive_attributes keep the
// engine's marks, which are Terraform's plus the copies a provider built
// into Cairn declares for the engine (awscc's tags_all), so tools, and
// Terraform reading Cairn's files, see the same data.

// humanMarks returns an object value of a resource type as human
// renderings show it: marked sensitive wherever the rule above says, the
// run's secrets (secrets) and the object's own being secrets. A copy that
// is not known yet is left as it is: it reads "(known after apply)".
func humanMarks(v cty.Value, schema *configschema.Block, secrets marks.Secrets) cty.Value {
	own, _ := ownMarks(v, schema)
	return marks.HideCopies(own, secrets)
}

// ownMarks is humanMarks with the object's own secrets only; marked says
// whether the result holds a mark (and so secrets).
func ownMarks(v cty.Value, schema *configschema.Block) (_ cty.Value, marked bool) {
	v = withSecretMarks(v, schema)
	if !isKnownObject(v) || !marks.Contains(v) {
		return v, false
	}
	plain, pvm := v.UnmarkDeepWithPaths()
	if more := schema.CopyMarks(plain, pvm, true, cty.NilVal); len(more) > 0 {
		v = plain.MarkWithPaths(append(pvm, more...))
	}
	return marks.HideCopies(v, marks.SecretsOf(v)), true
}

// ownChange is a change's two sides with their own human marks (ownMarks),
// before the run's secrets are known, and whether either holds a mark.
type ownChange struct {
	before, after cty.Value
	marked        bool
}

func ownChangeMarks(before, after cty.Value, schema *configschema.Block) ownChange {
	b, mb := ownMarks(before, schema)
	a, ma := ownMarks(after, schema)
	return ownChange{before: b, after: a, marked: mb || ma}
}

// secrets returns the secrets of both sides.
func (o ownChange) secrets() marks.Secrets {
	if !o.marked {
		return marks.Secrets{}
	}
	s := marks.SecretsOf(o.before)
	s.Merge(marks.SecretsOf(o.after))
	return s
}

// humanChangeMarks is humanMarks for the two sides of a change. A copy
// that was wholly sensitive before and is not known after stays sensitive,
// so the plan does not announce that it will stop being sensitive: it will
// be sensitive again once known. The run's secrets do not hide a string
// whose counterpart on the other side is sensitive already: the diff shows
// that attribute as sensitive on both sides anyway, and Terraform's
// warning that it becomes (or stops being) sensitive stays true.
func humanChangeMarks(before, after cty.Value, schema *configschema.Block, secrets marks.Secrets) (cty.Value, cty.Value) {
	own := ownChangeMarks(before, after, schema)
	return own.withRunSecrets(schema, secrets)
}

// withRunSecrets is humanChangeMarks after ownChangeMarks.
func (o ownChange) withRunSecrets(schema *configschema.Block, secrets marks.Secrets) (cty.Value, cty.Value) {
	before, after := o.before, o.after
	if !secrets.Empty() {
		// Both sides are judged by their own marks, not by those the
		// run's secrets add to the other.
		before, after = marks.HideCopiesExcept(before, secrets, markedIn(after)), marks.HideCopiesExcept(after, secrets, markedIn(before))
	}
	if !isKnownObject(before) || !isKnownObject(after) {
		return before, after
	}
	for _, c := range schema.Copies {
		if !after.Type().HasAttribute(c.To) || !before.Type().HasAttribute(c.To) {
			continue
		}
		if !after.GetAttr(c.To).IsKnown() && before.GetAttr(c.To).IsMarked() {
			plain, pvm := after.UnmarkDeepWithPaths()
			pvm = append(pvm, cty.PathValueMarks{Path: cty.GetAttrPath(c.To), Marks: cty.NewValueMarks(configschema.SensitiveMark)})
			after = plain.MarkWithPaths(pvm)
		}
	}
	return before, after
}

// markedIn returns whether v marks a path or a part holding it. The marks
// are looked for on the first question: most values have no string that
// needs asking about.
func markedIn(v cty.Value) func(cty.Path) bool {
	if v == cty.NilVal {
		return nil
	}
	var pvm []cty.PathValueMarks
	looked := false
	return func(p cty.Path) bool {
		if !looked {
			_, pvm = marks.Unmark(v)
			looked = true
		}
		for _, pm := range pvm {
			if len(pm.Path) <= len(p) && pm.Path.Equals(p[:len(pm.Path)]) {
				return true
			}
		}
		return false
	}
}

// withSecretMarks returns v with the sensitive mark on every attribute the
// schema declares a secret (sensitive or masked), besides the marks it
// already has.
func withSecretMarks(v cty.Value, schema *configschema.Block) cty.Value {
	if v == cty.NilVal || !schema.HasSecret() {
		return v
	}
	plain, pvm := v.UnmarkDeepWithPaths()
	for _, p := range schema.SecretPaths(plain) {
		pvm = append(pvm, cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(configschema.SensitiveMark)})
	}
	return plain.MarkWithPaths(pvm)
}

func isKnownObject(v cty.Value) bool {
	return v != cty.NilVal && !v.IsNull() && v.IsKnown() && v.Type().IsObjectType()
}
