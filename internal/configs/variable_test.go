package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// variableView is the comparable part of a decoded Variable. The type is
// compared as its type-expression string and the default with RawEquals.
type variableView struct {
	Type        string
	HasDefaults bool
	Description string
	Sensitive   bool
	Nullable    bool
	ParsingMode VariableParsingMode
	Validations []string
}

func viewVariable(m *Module, v *Variable) variableView {
	out := variableView{
		Type:        typeexpr.TypeString(v.Type),
		HasDefaults: v.TypeDefaults != nil,
		Description: v.Description,
		Sensitive:   v.Sensitive,
		Nullable:    v.Nullable,
		ParsingMode: v.ParsingMode,
	}
	for _, cr := range v.Validations {
		out.Validations = append(out.Validations, exprText(m, cr.Condition))
	}
	return out
}

func TestVariableDecoding(t *testing.T) {
	cases := map[string]struct {
		reason      string
		files       map[string]string
		want        variableView
		wantDefault cty.Value // cty.NilVal: no default
	}{
		"Untyped": {
			reason:      "Without a type any value is accepted and plain strings are taken literally.",
			files:       map[string]string{"main.tf": `variable "x" {}`},
			want:        variableView{Type: "any", Nullable: true, ParsingMode: VariableParseLiteral},
			wantDefault: cty.NilVal,
		},
		"AllArguments": {
			files: map[string]string{"main.tf": `
variable "x" {
  type        = number
  default     = "5"
  description = "How many."
  sensitive   = true
  nullable    = false
  validation {
    condition     = var.x > 0
    error_message = "Must be positive."
  }
  validation {
    condition     = floor(var.x) == var.x
    error_message = "Must be whole."
  }
}`},
			want: variableView{
				Type: "number", Description: "How many.", Sensitive: true,
				ParsingMode: VariableParseLiteral,
				Validations: []string{"var.x > 0", "floor(var.x) == var.x"},
			},
			wantDefault: cty.NumberIntVal(5),
		},
		"OptionalAttributesWithDefaults": {
			reason: "Optional attribute defaults are applied to the default before conversion.",
			files: map[string]string{"main.tf": `
variable "x" {
  type = object({
    name = string
    size = optional(number, 10)
    tags = optional(map(string))
  })
  default = { name = "a" }
}`},
			want: variableView{
				Type:        "object({name=string,size=number,tags=map(string)})",
				HasDefaults: true, Nullable: true, ParsingMode: VariableParseHCL,
			},
			wantDefault: cty.ObjectVal(map[string]cty.Value{
				"name": cty.StringVal("a"),
				"size": cty.NumberIntVal(10),
				"tags": cty.NullVal(cty.Map(cty.String)),
			}),
		},
		"NullDefaultWhenNullable": {
			files:       map[string]string{"main.tf": `variable "x" { default = null }`},
			want:        variableView{Type: "any", Nullable: true},
			wantDefault: cty.NullVal(cty.DynamicPseudoType),
		},
		"LegacyListKeyword": {
			reason:      "type = list still means list(any), as in Terraform.",
			files:       map[string]string{"main.tf": `variable "x" { type = list }`},
			want:        variableView{Type: "list(any)", Nullable: true, ParsingMode: VariableParseHCL},
			wantDefault: cty.NilVal,
		},
		"ListDefaultConverted": {
			files: map[string]string{"main.tf": `
variable "x" {
  type    = list(string)
  default = [1, true]
}`},
			want:        variableView{Type: "list(string)", Nullable: true, ParsingMode: VariableParseHCL},
			wantDefault: cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("true")}),
		},
		"JSONTypeString": {
			reason: "In JSON the type is a string holding a type expression.",
			files: map[string]string{"main.tf.json": `{"variable": {"x": {
  "type": "object({name = string, size = optional(number, 3)})",
  "default": {"name": "a"},
  "description": "An object.",
  "validation": [{"condition": "${length(var.x.name) > 0}", "error_message": "Name it."}]
}}}`},
			want: variableView{
				Type: "object({name=string,size=number})", HasDefaults: true,
				Description: "An object.", Nullable: true, ParsingMode: VariableParseHCL,
				Validations: []string{`"${length(var.x.name) > 0}"`},
			},
			wantDefault: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.NumberIntVal(3)}),
		},
		"JSONPrimitiveType": {
			files:       map[string]string{"main.tf.json": `{"variable": {"x": {"type": "string", "default": "d"}}}`},
			want:        variableView{Type: "string", Nullable: true, ParsingMode: VariableParseLiteral},
			wantDefault: cty.StringVal("d"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := mustLoad(t, tc.files)
			v, ok := m.Variables["x"]
			if !ok {
				t.Fatalf("variable x not loaded")
			}
			if diff := cmp.Diff(tc.want, viewVariable(m, v)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if !tc.wantDefault.RawEquals(v.Default) {
				t.Errorf("%s\nDefault: want %#v, got %#v", tc.reason, tc.wantDefault, v.Default)
			}
		})
	}
}

// TestDefaultConversionDetail checks that a default's type mismatch names
// the element at fault, in the path spelling every message uses.
func TestDefaultConversionDetail(t *testing.T) {
	cases := map[string]struct {
		reason string
		src    string
		ty     cty.Type
		want   string
	}{
		"Top": {
			src:  `"a"`,
			ty:   cty.Number,
			want: "a number is required",
		},
		"ListElement": {
			src:  `[1, "x"]`,
			ty:   cty.List(cty.Number),
			want: "[1]: a number is required",
		},
		"MapAttribute": {
			src:  `{ k = { n = "x" } }`,
			ty:   cty.Map(cty.Object(map[string]cty.Type{"n": cty.Bool})),
			want: `["k"].n: a bool is required`,
		},
		"ListOfTuple": {
			reason: "Terraform 1.5.7's cty does not add the type found (\", but have tuple\")",
			src:    `[[true]]`,
			ty:     cty.List(cty.String),
			want:   "element 0: string required",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			expr, hd := hclsyntax.ParseExpression([]byte(tc.src), "main.tf", hcl.InitialPos)
			if hd.HasErrors() {
				t.Fatal(hd)
			}
			v := &Variable{Type: tc.ty, Nullable: true}
			ds := v.decodeDefault(expr)
			if len(ds) != 1 {
				t.Fatalf("want one diagnostic, got %v", ds)
			}
			want := "The default value does not match the variable's type constraint: " + tc.want + ". Change the default or the type."
			if diff := cmp.Diff(want, ds[0].Detail); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCrossRefValidations checks which rules wait in the graph: any rule
// whose condition or error message names something besides the variable.
func TestCrossRefValidations(t *testing.T) {
	m := mustLoad(t, map[string]string{"main.tf": `
variable "x" {
  validation {
    condition     = var.x > 0
    error_message = "Positive, not ${var.x}."
  }
  validation {
    condition     = var.x < var.max
    error_message = "Under max."
  }
  validation {
    condition     = var.x != 3
    error_message = "Not ${local.banned}."
  }
  validation {
    condition     = fileexists("${path.module}/${var.x}")
    error_message = "Needs a file."
  }
}
variable "max" {}
`})
	self, cross := m.Variables["x"].CrossRefValidations()
	var got [2][]string
	for i, rules := range [][]*CheckRule{self, cross} {
		for _, cr := range rules {
			got[i] = append(got[i], exprText(m, cr.Condition))
		}
	}
	want := [2][]string{
		{"var.x > 0"},
		{"var.x < var.max", "var.x != 3", `fileexists("${path.module}/${var.x}")`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("self/cross rules (-want +got):\n%s", diff)
	}
}
