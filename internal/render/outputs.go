package render

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// ApplySummary writes the line `terraform apply` or `terraform destroy`
// ends with, "Apply complete! Resources: ..." with the import count first
// when anything was imported, worded as the change_summary message.
func ApplySummary(w io.Writer, sum UIChangeSummary, opts Options) error {
	// The text holds only words and counts, so painting it is safe.
	_, err := io.WriteString(w, opts.painter().paint("[reset][bold][green]\n"+sum.text()+"\n"))
	return err
}

// Outputs writes the "Outputs:" section `terraform apply` prints after the
// summary: every root output in name order, "name = value" in Terraform
// language syntax, sensitive ones as "name = <sensitive>", and so are those
// that reveal a secret of opts.Secrets. With no outputs it writes nothing.
func Outputs(w io.Writer, outputs map[string]*states.OutputValue, opts Options) error {
	if len(outputs) == 0 {
		return nil
	}
	s := opts.painter().paint("[reset][bold][green]\nOutputs:\n\n") + outputLines(outputs, opts.Secrets.Secrets()) + "\n"
	_, err := io.WriteString(w, s)
	return err
}

// outputLines returns the "name = value" lines of all outputs, without a
// final newline; sensitive outputs, and those revealing one of secrets,
// read <sensitive>.
func outputLines(outputs map[string]*states.OutputValue, secrets marks.Secrets) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		o := outputs[name]
		if o.Sensitive || revealsSecret(o.Value, secrets) {
			fmt.Fprintf(&b, "%s = <sensitive>\n", name)
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", name, FormatValue(o.Value, 0))
	}
	return strings.TrimSpace(b.String())
}

// OutputFormat is how `terraform output` prints values.
type OutputFormat byte

const (
	// OutputHuman prints Terraform language syntax (the default).
	OutputHuman OutputFormat = iota
	// OutputRaw prints one string, number or bool as is, with no quotes
	// and no newline, for shell scripts (-raw).
	OutputRaw
	// OutputJSON prints JSON (-json): one output's value, or every
	// output's value, type and sensitivity.
	OutputJSON
)

// Output writes root module outputs as `terraform output [-raw|-json]
// [NAME]` prints them: one output when name is set, else all of them.
// Sensitive values are printed when asked for by name or as JSON, and
// hidden as <sensitive> in the human list of all outputs, as Terraform
// does; there, values that reveal one of secrets (the state's, see
// StateSecrets) are hidden too: the list is for people, a value asked for
// by name or as JSON is for scripts.
//
// Problems the user can fix (no such output, no outputs at all, a value
// -raw cannot print) come back as diagnostics, with nothing written.
// Errors writing to w come back as an error diagnostic too.
func Output(w io.Writer, name string, outputs map[string]*states.OutputValue, format OutputFormat, secrets marks.Secrets) diags.Diagnostics {
	if len(outputs) == 0 && format != OutputJSON {
		return diags.Diagnostics{{Severity: diags.Warning, Summary: "No outputs found",
			Detail: "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `cairn apply` for it to become available. If you are using interpolation, please verify the interpolated value is not empty."}}
	}
	if name == "" && format == OutputRaw {
		return diags.Diagnostics{{Severity: diags.Error, Summary: "Raw output format is only supported for single outputs"}}
	}
	var o *states.OutputValue
	if name != "" {
		if o = outputs[name]; o == nil {
			return diags.Diagnostics{{Severity: diags.Error, Summary: fmt.Sprintf("Output %q not found", name),
				Detail: "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `cairn apply`, since the state won't be updated with new output variables until that command is run."}}
		}
	}
	var text string
	var ds diags.Diagnostics
	switch {
	case format == OutputRaw:
		text, ds = rawOutput(name, o.Value)
	case format == OutputJSON && o != nil:
		text, ds = jsonValue(o.Value)
	case format == OutputJSON:
		text, ds = jsonOutputs(outputs)
	case o != nil:
		text = FormatValue(o.Value, 0) + "\n"
	default:
		text = outputLines(outputs, secrets) + "\n"
	}
	if ds.HasErrors() {
		return ds
	}
	if _, err := io.WriteString(w, text); err != nil {
		return ds.Append(err)
	}
	return ds
}

// rawOutput returns a string, number or bool as text.
func rawOutput(name string, v cty.Value) (string, diags.Diagnostics) {
	s, err := convert.Convert(v, cty.String)
	switch {
	case err != nil:
		return "", diags.Diagnostics{diags.Errorf("Unsupported value for raw output",
			"The -raw option only supports strings, numbers, and boolean values, but output value %q is %s.\n\nUse the -json option for machine-readable representations of output values that have complex types.",
			name, v.Type().FriendlyName())}
	case s.IsNull():
		return "", diags.Diagnostics{diags.Errorf("Unsupported value for raw output",
			"The value for output value %q is null, so -raw mode cannot print it.", name)}
	case !s.IsKnown():
		return "", diags.Diagnostics{diags.Errorf("Unsupported value for raw output",
			"The value for output value %q won't be known until after a successful cairn apply, so -raw mode cannot print it.", name)}
	}
	return s.AsString(), nil
}

// jsonValue returns one value as compact JSON and a newline.
func jsonValue(v cty.Value) (string, diags.Diagnostics) {
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return "", diags.Diagnostics{diags.Errorf("Failed to encode output value", "%s.", err)}
	}
	return string(b) + "\n", nil
}

// jsonOutputs returns every output with its sensitivity, type and value,
// indented, in the shape of state format version 3 that `terraform output
// -json` has kept for compatibility.
func jsonOutputs(outputs map[string]*states.OutputValue) (string, diags.Diagnostics) {
	type meta struct {
		Sensitive bool            `json:"sensitive"`
		Type      json.RawMessage `json:"type"`
		Value     json.RawMessage `json:"value"`
	}
	all := make(map[string]meta, len(outputs))
	for name, o := range outputs {
		val, err := ctyjson.Marshal(o.Value, o.Value.Type())
		if err != nil {
			return "", diags.Diagnostics{diags.Errorf("Failed to encode output value", "Output %q: %s.", name, err)}
		}
		ty, err := ctyjson.MarshalType(o.Value.Type())
		if err != nil {
			return "", diags.Diagnostics{diags.Errorf("Failed to encode output value", "Output %q: %s.", name, err)}
		}
		all[name] = meta{Sensitive: o.Sensitive, Type: ty, Value: val}
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return "", diags.Diagnostics{diags.Errorf("Failed to encode output values", "%s.", err)}
	}
	return string(b) + "\n", nil
}
