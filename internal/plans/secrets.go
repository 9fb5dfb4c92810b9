package plans

import (
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// Secrets returns the secrets (marks.Secrets) of everything the plan
// holds: both sides of every change (their marks and what their schema
// declares secret), the root variables, sensitive outputs, and the states
// the plan was made from (an object that drifted shows its earlier value).
// Apply starts from them, and a rendering of the plan checks what it shows
// against them: a copy of a secret in another object, which no mark
// follows, is recognised by its text.
func (p *Plan) Secrets(schemaOf states.SchemaFunc) marks.Secrets {
	out := p.SecretsBesideChanges(schemaOf)
	for _, c := range p.Changes {
		out.Merge(c.Secrets(schemaOf))
	}
	return out
}

// Secrets returns the secrets of both sides of the change, its schema
// found by schemaOf (none when it has no schema).
func (c *ResourceInstanceChange) Secrets(schemaOf states.SchemaFunc) marks.Secrets {
	schema := schemaOf(c.Provider.Provider, c.Addr.Resource.Resource)
	if schema == nil {
		return marks.Secrets{}
	}
	out := schema.Secrets(c.Before)
	out.Merge(schema.Secrets(c.After))
	return out
}

// SecretsBesideChanges is Secrets without the changes': for a caller that
// walks the changes' values anyway.
func (p *Plan) SecretsBesideChanges(schemaOf states.SchemaFunc) marks.Secrets {
	var out marks.Secrets
	for _, v := range p.VariableValues {
		out.Merge(marks.SecretsOf(v))
	}
	for _, o := range p.Outputs {
		for _, v := range []cty.Value{o.Before, o.After} {
			if v != cty.NilVal && o.Sensitive {
				v = v.Mark(marks.Sensitive)
			}
			out.Merge(marks.SecretsOf(v))
		}
	}
	for _, s := range []*states.State{p.PrevRunState, p.PriorState} {
		out.Merge(s.Secrets(schemaOf))
	}
	return out
}
