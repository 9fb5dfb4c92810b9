package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
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

// TestConversionError checks that a default's type mismatch names the
// element at fault.
func TestConversionError(t *testing.T) {
	cases := map[string]struct {
		val  cty.Value
		ty   cty.Type
		want string
	}{
		"Top": {
			val:  cty.StringVal("a"),
			ty:   cty.Number,
			want: "a number is required",
		},
		"ListElement": {
			val:  cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x")}),
			ty:   cty.List(cty.Number),
			want: "[1]: a number is required",
		},
		"MapAttribute": {
			val:  cty.ObjectVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"n": cty.StringVal("x")})}),
			ty:   cty.Map(cty.Object(map[string]cty.Type{"n": cty.Bool})),
			want: `["k"].n: a bool is required`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := convert.Convert(tc.val, tc.ty)
			if err == nil {
				t.Fatalf("conversion succeeded")
			}
			if diff := cmp.Diff(tc.want, conversionError(err)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
