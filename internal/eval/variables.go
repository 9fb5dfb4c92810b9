package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/hclscan"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/typeconv"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// VariableSource says where a raw variable value came from; precedence and
// strictness depend on it.
type VariableSource byte

const (
	// FromFile is a .tfvars file (terraform.tfvars, *.auto.tfvars,
	// -var-file).
	FromFile VariableSource = 'F'
	// FromCLI is a -var option.
	FromCLI VariableSource = 'C'
	// FromEnv is a TF_VAR_name environment variable.
	FromEnv VariableSource = 'E'
)

// RawVariable is a root input variable value before its type is known:
// an expression from a file, or a string from the command line or the
// environment.
type RawVariable struct {
	Source VariableSource
	// Expr is set for FromFile values.
	Expr hcl.Expression
	// Raw is set for FromCLI and FromEnv values.
	Raw string
	// Origin describes the source for messages: "-var", "TF_VAR_x", a
	// file name.
	Origin string
}

// FinalizeVariables turns raw values into the typed, validated, marked
// values of every declared root variable: defaults applied, type converted,
// nullable honoured, sensitive marked, validation rules checked.
func FinalizeVariables(cfg *configs.Module, raw map[string]RawVariable, funcs map[string]function.Function) (map[string]cty.Value, diags.Diagnostics) {
	return finalizeVariables(cfg, raw, funcs, false)
}

// FinalizeVariablesAllowUnset is FinalizeVariables for a caller that only
// explores the configuration (console): a required variable with no value
// is unknown rather than an error, as Terraform's console does.
func FinalizeVariablesAllowUnset(cfg *configs.Module, raw map[string]RawVariable, funcs map[string]function.Function) (map[string]cty.Value, diags.Diagnostics) {
	return finalizeVariables(cfg, raw, funcs, true)
}

func finalizeVariables(cfg *configs.Module, raw map[string]RawVariable, funcs map[string]function.Function, allowUnset bool) (map[string]cty.Value, diags.Diagnostics) {
	var ds diags.Diagnostics
	ds = ds.Append(undeclaredVariables(cfg, raw))
	out := make(map[string]cty.Value, len(cfg.Variables))
	names := make([]string, 0, len(cfg.Variables))
	for name := range cfg.Variables {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := cfg.Variables[name]
		given := raw[name].Source != 0
		if !given && allowUnset && v.Default == cty.NilVal {
			out[name] = unsetVariable(v)
			continue
		}
		val, vds := finalizeVariable(v, raw[name], given)
		ds = ds.Append(vds)
		if given && v.Deprecated != "" {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Deprecated variable used from the root module",
				Detail:  fmt.Sprintf("The root variable %q is deprecated with the following message: %s", v.Name, v.Deprecated),
				Subject: v.DeclRange.Ptr()})
		}
		out[name] = val
	}
	if ds.HasErrors() {
		return out, ds
	}
	for _, name := range names {
		ds = ds.Append(validateVariable(cfg.Variables[name], out, funcs, cfg.SourceDir))
	}
	return out, ds
}

// unsetVariable is the unknown value of a required variable nobody set.
func unsetVariable(v *configs.Variable) cty.Value {
	return markVariable(v, cty.UnknownVal(v.Type))
}

// markVariable gives a variable's value the marks its declaration asks
// for: sensitive, ephemeral.
func markVariable(v *configs.Variable, val cty.Value) cty.Value {
	if v.Sensitive {
		val = val.Mark(configschema.SensitiveMark)
	}
	if v.Ephemeral {
		val = val.Mark(marks.Ephemeral)
	}
	return val
}

func undeclaredVariables(cfg *configs.Module, raw map[string]RawVariable) diags.Diagnostics {
	var ds diags.Diagnostics
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := cfg.Variables[name]; ok {
			continue
		}
		rv := raw[name]
		switch rv.Source {
		case FromCLI:
			ds = ds.Append(diags.Errorf("Value for undeclared variable",
				"A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name))
		case FromFile:
			d := diags.Diagnostic{Severity: diags.Warning, Summary: "Value for undeclared variable",
				Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.", name, rv.Origin)}
			if rv.Expr != nil {
				d.Subject = rv.Expr.Range().Ptr()
			}
			ds = ds.Append(d)
		}
	}
	return ds
}

func finalizeVariable(v *configs.Variable, rv RawVariable, given bool) (cty.Value, diags.Diagnostics) {
	var ds diags.Diagnostics
	var val cty.Value
	var rng *hcl.Range
	switch {
	case !given:
		if v.Default == cty.NilVal {
			return cty.DynamicVal, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "No value for required variable",
				Detail:  fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", v.Name),
				Subject: v.DeclRange.Ptr()})
		}
		val = v.Default
	case rv.Source == FromFile:
		var hd hcl.Diagnostics
		val, hd = rv.Expr.Value(nil)
		ds = ds.Append(hd)
		if hd.HasErrors() {
			return cty.DynamicVal, ds
		}
		rng = rv.Expr.Range().Ptr()
	default:
		var pds diags.Diagnostics
		val, pds = parseRawVariable(v, rv)
		ds = ds.Append(pds)
		if pds.HasErrors() {
			return cty.DynamicVal, ds
		}
	}
	if val.IsNull() && !v.Nullable {
		if v.Default == cty.NilVal || v.Default.IsNull() {
			return cty.DynamicVal, ds.Append(invalidVariable(v, rv, rng, "The given value is null, but this variable does not accept null values."))
		}
		val = v.Default
	}
	if v.TypeDefaults != nil && !val.IsNull() {
		val = v.TypeDefaults.Apply(val)
	}
	conv, err := typeconv.Convert(val, v.Type)
	if err != nil {
		return cty.DynamicVal, ds.Append(invalidVariable(v, rv, rng, fmt.Sprintf("Unsuitable value for var.%s: %s.", v.Name, err)))
	}
	if d := lang.UnstorableNumber(conv); d != nil {
		return cty.DynamicVal, ds.Append(invalidVariable(v, rv, rng, d.Detail))
	}
	return markVariable(v, conv), ds
}

// parseRawVariable interprets a -var or TF_VAR_ string: literally for
// primitive types and untyped variables, as an HCL expression otherwise
// (so lists and maps can be given on the command line).
func parseRawVariable(v *configs.Variable, rv RawVariable) (cty.Value, diags.Diagnostics) {
	if v.ParsingMode == configs.VariableParseLiteral {
		return cty.StringVal(rv.Raw), nil
	}
	if d := hclscan.CheckDepth([]byte(rv.Raw), rv.Origin, hcl.InitialPos, hclscan.Native); d != nil {
		return cty.DynamicVal, diags.Diagnostics{diags.Errorf("Invalid value for input variable",
			"The value given for variable %q in %s nests more than %d levels deep, the most Cairn reads. Give a flatter value, or put it in a variables file.", v.Name, rv.Origin, hclscan.MaxDepth)}
	}
	expr, hd := hclsyntax.ParseExpression([]byte(rv.Raw), rv.Origin, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if hd.HasErrors() {
		return cty.DynamicVal, diags.Diagnostics{diags.Errorf("Invalid value for input variable",
			"The value given for variable %q in %s is not a valid expression: %s.", v.Name, rv.Origin, hd[0].Summary)}
	}
	val, hd := expr.Value(nil)
	if hd.HasErrors() {
		return cty.DynamicVal, diags.Diagnostics{diags.Errorf("Invalid value for input variable",
			"The value given for variable %q in %s is invalid: %s.", v.Name, rv.Origin, hd[0].Detail)}
	}
	return val, nil
}

func invalidVariable(v *configs.Variable, rv RawVariable, rng *hcl.Range, detail string) diags.Diagnostic {
	d := diags.Diagnostic{Severity: diags.Error, Summary: "Invalid value for input variable", Detail: detail, Subject: rng}
	if rng == nil {
		d.Subject = v.DeclRange.Ptr()
		if rv.Origin != "" {
			d.Detail = fmt.Sprintf("The value given in %s for variable %q is invalid. %s", rv.Origin, v.Name, detail)
		}
	}
	return d
}

// validateVariable runs the variable's validation rules that refer only to
// the variable itself, with only it in scope. Rules that refer to other
// objects wait for them in the graph (Env.ValidateVariableCrossRefs).
func validateVariable(v *configs.Variable, vals map[string]cty.Value, funcs map[string]function.Function, dir string) diags.Diagnostics {
	if len(v.Validations) == 0 {
		return nil
	}
	self, _ := v.CrossRefValidations()
	scope := &lang.Scope{Data: namedvals.New(map[string]cty.Value{v.Name: vals[v.Name]}).Data(addrs.RootModuleInstance), Funcs: funcs, ModuleDir: dir}
	ds, _ := checkValidationRules(v, scope, self)
	return ds
}

// ValidateVariableCrossRefs runs the validation rules of variable v of
// module instance m that refer to other variables, locals or objects
// (Terraform and OpenTofu 1.9), in m's scope: the graph has visited what
// they refer to. A condition not known yet passes for now, and deferred
// says so: planning then has apply check the rules again once what they
// refer to is applied, as Terraform 1.9 does.
func (e *Env) ValidateVariableCrossRefs(v *configs.Variable, m addrs.ModuleInstance) (ds diags.Diagnostics, deferred bool) {
	_, cross := v.CrossRefValidations()
	if len(cross) == 0 {
		return nil, false
	}
	return checkValidationRules(v, e.Scope(m), cross)
}

// checkValidationRules evaluates rules of variable v in scope, reporting
// each false condition with the rule's error message. unknown reports a
// condition that could not be decided yet.
func checkValidationRules(v *configs.Variable, scope *lang.Scope, rules []*configs.CheckRule) (ds diags.Diagnostics, unknown bool) {
	for _, rule := range rules {
		cond, cds := scope.EvalExpr(rule.Condition, cty.Bool)
		ds = ds.Append(cds)
		if cds.HasErrors() {
			continue
		}
		if !cond.IsKnown() {
			unknown = true
			continue
		}
		// A condition on a sensitive variable is itself marked; whether
		// it holds is not secret (Terraform reports it too), and True
		// panics on a marked value.
		cond, _ = cond.Unmark()
		if cond.IsNull() {
			ds = ds.Append(diags.At(rule.Condition.Range(), "Invalid variable validation result",
				"The validation condition returned null; it must return true or false."))
			continue
		}
		if cond.True() {
			continue
		}
		msg, mds := scope.EvalExpr(rule.ErrorMessage, cty.String)
		ds = ds.Append(mds)
		text := "The value of this variable failed validation."
		if !mds.HasErrors() && msg.IsKnown() && !msg.IsNull() {
			if marks.IsEphemeral(msg) {
				text = "The error message included an ephemeral value, so it will not be displayed."
				ds = ds.Append(diags.At(rule.ErrorMessage.Range(), "Error message refers to ephemeral values",
					"The error expression used to explain this condition refers to ephemeral values. Cairn will not display the resulting message.\n\nYou can correct this by removing references to ephemeral values or by using the ephemeralasnull() function."))
			} else if msg.ContainsMarked() {
				// Terraform's wording, plus a second error pointing at
				// the message so the author can see why it is hidden.
				text = "The error message included a sensitive value, so it will not be displayed."
				ds = ds.Append(diags.At(rule.ErrorMessage.Range(), "Error message refers to sensitive values",
					"The error expression used to explain this condition refers to sensitive values. Cairn will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data."))
			} else {
				text = strings.TrimSpace(msg.AsString())
			}
		}
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid value for variable",
			Detail: text + "\n\nThis was checked by the validation rule at " + rangeText(rule.DeclRange) + ".", Subject: v.DeclRange.Ptr()})
	}
	return ds, unknown
}

func rangeText(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}
