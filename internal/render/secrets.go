package render

import (
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// What people are shown is checked against every secret the run knows of
// (marks.Known), not only against the secrets of the object shown: a
// provider's unmarked copy of a secret travels, an id built from a
// sensitive name becoming another resource's input, and only its text
// gives it away there. A rendering collects the secrets of what it
// renders (planSecrets, StateSecrets) and adds those the run learned
// elsewhere (Options.Secrets: sensitive variables, provider
// configurations, objects applied since). As in a run's marks.Known, only
// secrets at least marks.MinContained long count across objects; an
// object's short secrets hide only its own equal strings (humanMarks).

// StateSecrets returns the secrets of every object and sensitive output of
// s, its objects decoded with their schemas in schemas (states.Secrets).
// A command that shows part of a state (`state show`, `output`) hands
// them to the renderer in Options.Secrets.
func StateSecrets(s *states.State, schemas providers.Schemas) marks.Secrets {
	return s.Secrets(schemas.ResourceSchema)
}

// planSecrets returns the secrets at least marks.MinContained long of
// everything a plan holds (plans.Plan.Secrets) and of extra: the changes
// shown from their own marks (own), the others (hidden) from their values.
func planSecrets(p *plans.Plan, schemas providers.Schemas, extra *marks.Known, hidden []*plans.ResourceInstanceChange, own []ownChange) marks.Secrets {
	out := extra.Secrets()
	out.MergeLong(p.SecretsBesideChanges(schemas.ResourceSchema))
	for _, c := range hidden {
		out.MergeLong(c.Secrets(schemas.ResourceSchema))
	}
	for _, o := range own {
		out.MergeLong(o.secrets())
	}
	return out
}

// revealsSecret reports whether any known string of v (marked or not)
// reveals one of secrets: then a value shown whole, such as an output's,
// is shown as sensitive.
func revealsSecret(v cty.Value, secrets marks.Secrets) bool {
	if secrets.Empty() || v == cty.NilVal {
		return false
	}
	u, _ := marks.Unmark(v)
	found := false
	_ = cty.Walk(u, func(_ cty.Path, e cty.Value) (bool, error) {
		if !found && e.IsKnown() && !e.IsNull() && e.Type() == cty.String && secrets.Reveals(e.AsString()) {
			found = true
		}
		return !found, nil
	})
	return found
}

// redactDiagnostic returns d as people may read it: every secret of
// secrets in its summary and detail replaced by "(sensitive value)", and
// no value description that reveals one. Diagnostics come from
// everywhere (providers, functions, conditions, the engine) and name what
// they were given; this is the one place all of them pass before they are
// shown.
func redactDiagnostic(d diags.Diagnostic, secrets *marks.Known) diags.Diagnostic {
	if secrets == nil {
		return d
	}
	d.Summary, d.Detail = secrets.Redact(d.Summary), secrets.Redact(d.Detail)
	if len(d.Values) > 0 {
		var keep []diags.ExprValue
		for _, v := range d.Values {
			if !secrets.Reveals(v.Statement) {
				keep = append(keep, v)
			}
		}
		d.Values = keep
	}
	return d
}
