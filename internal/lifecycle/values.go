package lifecycle

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// split is a value with and without its marks, so each value of a step is
// walked for marks once.
type split struct {
	v     cty.Value // with marks
	u     cty.Value // without
	marks []cty.PathValueMarks
}

func splitMarks(v cty.Value) split {
	u, pvm := marks.Unmark(v)
	return split{v: v, u: u, marks: pvm}
}

// withMarks re-applies marks to an unmarked answer, plus the schema's and
// those of the copies it declares (a copy of a sensitive value is
// sensitive, the provider configuration's included: provider, with its
// marks, or cty.NilVal), without walking the value for marks again.
func withMarks(schema *configschema.Block, u cty.Value, pvm []cty.PathValueMarks, provider cty.Value) split {
	sp := schema.SensitivePaths(u)
	copies := schema.CopyMarks(u, pvm, false, provider)
	if len(sp) == 0 && len(copies) == 0 {
		return split{v: marks.Apply(u, pvm), u: u, marks: pvm}
	}
	all := make([]cty.PathValueMarks, 0, len(pvm)+len(sp)+len(copies))
	all = append(all, pvm...)
	for _, p := range sp {
		all = append(all, cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(configschema.SensitiveMark)})
	}
	all = append(all, copies...)
	return split{v: u.MarkWithPaths(all), u: u, marks: all}
}

// redactPaths lists every marked path of the given values, to keep their
// values out of error messages.
func redactPaths(vals ...split) []cty.Path {
	var out []cty.Path
	for _, v := range vals {
		out = append(out, marks.Paths(v.marks)...)
	}
	return out
}

// redact removes from the provider's diagnostics the secrets of the values
// it was given (marks.Secrets.Redact): a provider knows nothing of marks,
// and its errors name what it was asked about ("identifier
// 'app-<secret>' already exists"). The result is a copy: the provider's
// own diagnostics are left as they are.
func redact(ds diags.Diagnostics, vals []split) diags.Diagnostics {
	var marked []cty.Value
	for _, v := range vals {
		if len(v.marks) > 0 {
			marked = append(marked, v.v)
		}
	}
	if len(marked) == 0 {
		return ds
	}
	secrets := marks.SecretsOf(cty.TupleVal(marked))
	out := make(diags.Diagnostics, len(ds))
	for i, d := range ds {
		d.Summary, d.Detail = secrets.Redact(d.Summary), secrets.Redact(d.Detail)
		out[i] = d
	}
	return out
}
