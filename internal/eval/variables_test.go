package eval

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestFinalizeVariables(t *testing.T) {
	const sensitive = configschema.SensitiveMark
	cases := map[string]struct {
		reason    string
		config    string
		raw       func(t *testing.T) map[string]RawVariable
		want      map[string]cty.Value
		wantDiags []diagView
		// detail checks, for the few cases where the detail is the point:
		// each string must (or must not) appear in the first diagnostic.
		detailHas, detailLacks []string
	}{
		"Defaults": {
			config: `
variable "s" { default = "d" }
variable "n" {
  type    = number
  default = "5"
}
`,
			want: map[string]cty.Value{"s": cty.StringVal("d"), "n": cty.NumberIntVal(5)},
		},
		"RequiredMissing": {
			config: `
variable "a" {}
variable "b" { type = string }
`,
			want:      map[string]cty.Value{"a": cty.DynamicVal, "b": cty.DynamicVal},
			wantDiags: []diagView{errAt("No value for required variable", "main.tf:2:1"), errAt("No value for required variable", "main.tf:3:1")},
		},
		"CLILiteralString": {
			reason: "A -var value for a string variable is the text itself; quotes are part of it.",
			config: `variable "s" { type = string }`,
			raw:    func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"s": cliVar(`"quoted" [1]`)} },
			want:   map[string]cty.Value{"s": cty.StringVal(`"quoted" [1]`)},
		},
		"CLILiteralNumber": {
			config: `variable "n" { type = number }`,
			raw:    func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"n": cliVar("42")} },
			want:   map[string]cty.Value{"n": cty.NumberIntVal(42)},
		},
		"CLIUntypedIsLiteral": {
			reason: "Without a type Terraform takes the string as it is, even if it looks like a list.",
			config: `variable "u" {}`,
			raw:    func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"u": cliVar(`["a"]`)} },
			want:   map[string]cty.Value{"u": cty.StringVal(`["a"]`)},
		},
		"CLIParsedAsHCL": {
			reason: "Collection types read the string as an HCL expression.",
			config: `
variable "l" { type = list(string) }
variable "m" { type = map(number) }
`,
			raw: func(*testing.T) map[string]RawVariable {
				return map[string]RawVariable{"l": cliVar(`["a", 1]`), "m": cliVar(`{ a = 1, b = "2" }`)}
			},
			want: map[string]cty.Value{
				"l": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("1")}),
				"m": cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)}),
			},
		},
		"CLIInfinite": {
			reason:    "1e999999999 is +Inf in cty, which no plan or state can hold: refused, not planned",
			config:    `variable "n" { type = number }`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"n": cliVar("1e999999999")} },
			want:      map[string]cty.Value{"n": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "main.tf:1:1")},
			detailHas: []string{"-var", "+Inf"},
		},
		"EnvInfiniteInList": {
			config: `variable "l" { type = list(number) }`,
			raw: func(*testing.T) map[string]RawVariable {
				return map[string]RawVariable{"l": envVar("l", "[1, -1e999999999]")}
			},
			want:      map[string]cty.Value{"l": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "main.tf:1:1")},
			detailHas: []string{"TF_VAR_l", "-Inf"},
		},
		"FileInfinite": {
			reason:    "from a file, the diagnostic points at the value",
			config:    `variable "n" { type = number }`,
			raw:       func(t *testing.T) map[string]RawVariable { return map[string]RawVariable{"n": fileVar(t, "1/0")} },
			want:      map[string]cty.Value{"n": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "terraform.tfvars:1:5")},
			detailHas: []string{"+Inf"},
		},
		"DefaultInfinite": {
			config:    `variable "n" { default = 1e999999999 }`,
			want:      map[string]cty.Value{"n": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "main.tf:1:1")},
		},
		"CLITooDeep": {
			reason: "hcl's parser recurses per level; 70,000 levels overflowed the stack and killed the process",
			config: `variable "l" { type = list(any) }`,
			raw: func(*testing.T) map[string]RawVariable {
				return map[string]RawVariable{"l": cliVar(strings.Repeat("[", 70_000) + strings.Repeat("]", 70_000))}
			},
			want:      map[string]cty.Value{"l": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "")},
			detailHas: []string{"nests more than 1000 levels"},
		},
		"CLIInvalidHCL": {
			config:    `variable "l" { type = list(string) }`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"l": cliVar(`[`)} },
			want:      map[string]cty.Value{"l": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "")},
			detailHas: []string{`"l"`, "-var"},
		},
		"CLIHCLNotConstant": {
			reason:    "A -var expression may not refer to anything.",
			config:    `variable "l" { type = list(string) }`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"l": cliVar(`[var.x]`)} },
			want:      map[string]cty.Value{"l": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "")},
		},
		"Env": {
			config: `
variable "s" { type = string }
variable "o" { type = object({ a = number }) }
`,
			raw: func(*testing.T) map[string]RawVariable {
				return map[string]RawVariable{"s": envVar("s", "x y"), "o": envVar("o", "{ a = 1 }")}
			},
			want: map[string]cty.Value{
				"s": cty.StringVal("x y"),
				"o": cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}),
			},
		},
		"FileExpressions": {
			config: `
variable "s" {}
variable "l" { type = list(number) }
variable "n" { type = number }
`,
			raw: func(t *testing.T) map[string]RawVariable {
				return map[string]RawVariable{"s": fileVar(t, `"a${"b"}"`), "l": fileVar(t, `[1, "2"]`), "n": fileVar(t, `1 + 2`)}
			},
			want: map[string]cty.Value{
				"s": cty.StringVal("ab"),
				"l": cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}),
				"n": cty.NumberIntVal(3),
			},
		},
		"FileExpressionNoFunctions": {
			reason: "tfvars files are constant: no functions, no references.",
			config: `variable "s" {}`,
			raw: func(t *testing.T) map[string]RawVariable {
				return map[string]RawVariable{"s": fileVar(t, `upper("a")`)}
			},
			want:      map[string]cty.Value{"s": cty.DynamicVal},
			wantDiags: []diagView{errAt("Function calls not allowed", "terraform.tfvars:1:5")},
		},
		"Precedence": {
			reason: "The caller resolves precedence; FinalizeVariables uses the one value it is given, whatever its source.",
			config: `
variable "a" { default = "default" }
variable "b" { default = "default" }
`,
			raw: func(t *testing.T) map[string]RawVariable {
				return map[string]RawVariable{"a": envVar("a", "env"), "b": fileVar(t, `"file"`)}
			},
			want: map[string]cty.Value{"a": cty.StringVal("env"), "b": cty.StringVal("file")},
		},
		"NullableNullKept": {
			config: `
variable "s" {
  type    = string
  default = "d"
}
`,
			raw:  func(t *testing.T) map[string]RawVariable { return map[string]RawVariable{"s": fileVar(t, `null`)} },
			want: map[string]cty.Value{"s": cty.NullVal(cty.String)},
		},
		"NotNullableNullTakesDefault": {
			config: `
variable "s" {
  type     = string
  default  = "d"
  nullable = false
}
`,
			raw:  func(t *testing.T) map[string]RawVariable { return map[string]RawVariable{"s": fileVar(t, `null`)} },
			want: map[string]cty.Value{"s": cty.StringVal("d")},
		},
		"NotNullableNullFromCLI": {
			config: `
variable "l" {
  type     = list(string)
  default  = ["d"]
  nullable = false
}
`,
			raw:  func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"l": cliVar("null")} },
			want: map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.StringVal("d")})},
		},
		"NotNullableNullNoDefault": {
			config: `
variable "s" {
  type     = string
  nullable = false
}
`,
			raw:       func(t *testing.T) map[string]RawVariable { return map[string]RawVariable{"s": fileVar(t, `null`)} },
			want:      map[string]cty.Value{"s": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "terraform.tfvars:1:5")},
		},
		"ConversionErrorFromFile": {
			reason:    "A value from a file is reported at the expression that set it.",
			config:    `variable "n" { type = number }`,
			raw:       func(t *testing.T) map[string]RawVariable { return map[string]RawVariable{"n": fileVar(t, `"many"`)} },
			want:      map[string]cty.Value{"n": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "terraform.tfvars:1:5")},
		},
		"ConversionErrorFromCLI": {
			reason:    "A -var value has no range of its own: the declaration is the subject and the detail names the source.",
			config:    `variable "n" { type = number }`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"n": cliVar("many")} },
			want:      map[string]cty.Value{"n": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "main.tf:1:1")},
			detailHas: []string{"-var", "var.n"},
		},
		"ConversionErrorFromEnv": {
			config:    `variable "b" { type = bool }`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"b": envVar("b", "maybe")} },
			want:      map[string]cty.Value{"b": cty.DynamicVal},
			wantDiags: []diagView{errAt("Invalid value for input variable", "main.tf:1:1")},
			detailHas: []string{"TF_VAR_b"},
		},
		"Sensitive": {
			config: `
variable "s" {
  sensitive = true
  default   = "d"
}
variable "t" {
  type      = string
  sensitive = true
}
`,
			raw: func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"t": cliVar("x")} },
			want: map[string]cty.Value{
				"s": cty.StringVal("d").Mark(sensitive),
				"t": cty.StringVal("x").Mark(sensitive),
			},
		},
		"OptionalAttributeDefaults": {
			config: `
variable "o" {
  type = object({
    a = string
    b = optional(number, 7)
  })
}
`,
			raw:  func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"o": cliVar(`{ a = "x" }`)} },
			want: map[string]cty.Value{"o": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NumberIntVal(7)})},
		},
		"ValidationPasses": {
			config: `
variable "n" {
  type = number
  validation {
    condition     = var.n > 0
    error_message = "Must be positive."
  }
}
`,
			raw:  func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"n": cliVar("3")} },
			want: map[string]cty.Value{"n": cty.NumberIntVal(3)},
		},
		"ValidationFails": {
			config: `
variable "n" {
  type = number
  validation {
    condition     = var.n > 0
    error_message = "Must be positive, not ${var.n}."
  }
}
`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"n": cliVar("-1")} },
			want:      map[string]cty.Value{"n": cty.NumberIntVal(-1)},
			wantDiags: []diagView{errAt("Invalid value for variable", "main.tf:2:1")},
			detailHas: []string{"Must be positive, not -1.", "main.tf:4:3"},
		},
		"ValidationUsesFunctions": {
			config: `
variable "s" {
  validation {
    condition     = length(var.s) < 3
    error_message = "Too long."
  }
}
`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"s": cliVar("long")} },
			want:      map[string]cty.Value{"s": cty.StringVal("long")},
			wantDiags: []diagView{errAt("Invalid value for variable", "main.tf:2:1")},
			detailHas: []string{"Too long."},
		},
		"ValidationSensitiveMessageHidden": {
			reason: "A message built from a sensitive value must not show it; as in Terraform, a second error points at the message.",
			config: `
variable "p" {
  type      = string
  sensitive = true
  validation {
    condition     = length(var.p) >= 8
    error_message = "Password ${var.p} is too short."
  }
}
`,
			raw:         func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"p": cliVar("hunter2")} },
			want:        map[string]cty.Value{"p": cty.StringVal("hunter2").Mark(sensitive)},
			wantDiags:   []diagView{errAt("Error message refers to sensitive values", "main.tf:7:21"), errAt("Invalid value for variable", "main.tf:2:1")},
			detailLacks: []string{"hunter2"},
		},
		"ValidationSkippedAfterErrors": {
			reason: "Rules run only when every variable has a value.",
			config: `
variable "a" {}
variable "n" {
  type = number
  validation {
    condition     = var.n > 100
    error_message = "Too small."
  }
}
`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"n": cliVar("1")} },
			want:      map[string]cty.Value{"a": cty.DynamicVal, "n": cty.NumberIntVal(1)},
			wantDiags: []diagView{errAt("No value for required variable", "main.tf:2:1")},
		},
		"UndeclaredFromCLI": {
			config:    `variable "a" { default = 1 }`,
			raw:       func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"nope": cliVar("x")} },
			want:      map[string]cty.Value{"a": cty.NumberIntVal(1)},
			wantDiags: []diagView{errAt("Value for undeclared variable", "")},
		},
		"UndeclaredFromFile": {
			reason:    "A tfvars file may hold values for other configurations: only a warning, at the value.",
			config:    `variable "a" { default = 1 }`,
			raw:       func(t *testing.T) map[string]RawVariable { return map[string]RawVariable{"nope": fileVar(t, `"x"`)} },
			want:      map[string]cty.Value{"a": cty.NumberIntVal(1)},
			wantDiags: []diagView{warnAt("Value for undeclared variable", "terraform.tfvars:1:5")},
		},
		"UndeclaredFromEnv": {
			reason: "TF_VAR_ variables for other configurations are common and ignored.",
			config: `variable "a" { default = 1 }`,
			raw:    func(*testing.T) map[string]RawVariable { return map[string]RawVariable{"nope": envVar("nope", "x")} },
			want:   map[string]cty.Value{"a": cty.NumberIntVal(1)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mod := loadModule(t, tc.config)
			var raw map[string]RawVariable
			if tc.raw != nil {
				raw = tc.raw(t)
			}
			got, ds := FinalizeVariables(mod, raw, funcs.Table("."))
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\nvalues: -want +got:\n%s", tc.reason, diff)
			}
			if len(tc.detailHas)+len(tc.detailLacks) == 0 {
				return
			}
			if len(ds) == 0 {
				t.Fatalf("%s\nno diagnostic to check the detail of", tc.reason)
			}
			for _, s := range tc.detailHas {
				if !strings.Contains(ds[0].Detail, s) {
					t.Errorf("%s\ndetail %q does not mention %q", tc.reason, ds[0].Detail, s)
				}
			}
			for _, s := range tc.detailLacks {
				if strings.Contains(ds[0].Detail, s) || strings.Contains(ds[0].Summary, s) {
					t.Errorf("%s\ndiagnostic shows %q: %s", tc.reason, s, ds[0].Detail)
				}
			}
		})
	}
}
