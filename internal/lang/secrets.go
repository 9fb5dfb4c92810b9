package lang

import (
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// ReferencedSecrets returns the secrets (marks.Secrets) of the objects
// expr's references read from in this scope: for var.x the variable, for
// terraform_data.a.output the resource's object (every instance), for
// self.output or each.value all of self or each. A value built from these
// objects can show a secret without carrying its mark: a provider's copy
// of a sensitive value is unmarked (terraform_data's output, an id built
// from a sensitive name). What is shown to people can be tested against
// these strings.
func (s *Scope) ReferencedSecrets(expr hcl.Expression) marks.Secrets {
	refs, _ := ReferencesInExpr(expr)
	ctx, _ := s.EvalContext(refs)
	var objs []cty.Value
	for _, t := range expr.Variables() {
		n := 2
		if root := t.RootName(); root == "self" || root == "each" {
			n = 1
		}
		if n > len(t) {
			n = len(t)
		}
		if v, hd := t[:n].TraverseAbs(ctx); !hd.HasErrors() && marks.Contains(v) {
			objs = append(objs, v)
		}
	}
	if len(objs) == 0 {
		return marks.Secrets{}
	}
	return marks.SecretsOf(cty.TupleVal(objs))
}

// RevealsSecret reports whether text, which the scope evaluated from expr
// and would show to people, reveals a secret: one of the objects expr
// refers to (ReferencedSecrets, where even a short secret counts when it
// is the whole text) or one the run knows of (Secrets: a copy that
// travelled through another object, as an input copied from the id of a
// log group named after a secret).
func (s *Scope) RevealsSecret(expr hcl.Expression, text string) bool {
	return s.Secrets.Reveals(text) || s.ReferencedSecrets(expr).Reveals(text)
}
