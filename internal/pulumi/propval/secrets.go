package propval

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
	cmarks "github.com/cairn-iac/cairn/internal/marks"
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
			Path:  cmarks.Reachable(out, pm.Path),
			Marks: cty.NewValueMarks(configschema.SensitiveMark),
		})
	}
	// A provider may copy a secret input into another attribute (awscc's
	// tags into tags_all, terraform_data's input into output), which the
	// path rule cannot see: strings that reveal one are secrets too.
	return cmarks.HideCopies(out.MarkWithPaths(marks), cmarks.SecretsOf(in))
}
