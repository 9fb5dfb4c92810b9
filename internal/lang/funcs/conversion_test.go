package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestTypeConversionFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"tobool":       {expr: `tobool("true")`, want: cty.True},
		"tobool null":  {expr: `tobool(null)`, want: cty.NullVal(cty.Bool)},
		"tobool maybe": {expr: `tobool("maybe")`, wantErr: `cannot convert "maybe" to bool`},
		"tobool sensitive": {
			reason:  "stdlib quotes the string it could not convert",
			expr:    `tobool(secret)`,
			wantErr: hiddenReason,
		},
		"tolist": {expr: `tolist(["a", "b"])`, want: strList("a", "b")},
		"tolist mixed": {
			reason: "elements unify to one type",
			expr:   `tolist(["a", 1])`,
			want:   strList("a", "1"),
		},
		"tolist map": {expr: `tolist({a = 1})`, wantErr: "cannot convert object to list of any single type"},
		"tolist keeps element marks": {
			expr: `tolist(["a", secret])`,
			want: cty.ListVal([]cty.Value{cty.StringVal("a"), sens(cty.StringVal(secretText))}),
		},
		"tomap": {
			expr: `tomap({a = 1, b = 2})`,
			want: cty.MapVal(map[string]cty.Value{"a": num(1), "b": num(2)}),
		},
		"tomap list": {expr: `tomap(["a"])`, wantErr: "cannot convert tuple to map of any single type"},
		"tomap keeps element marks": {
			reason: "only a is sensitive, so the map can still drive for_each",
			expr:   `tomap({a = secret, b = "y"})`,
			want: cty.MapVal(map[string]cty.Value{
				"a": sens(cty.StringVal(secretText)),
				"b": cty.StringVal("y"),
			}),
		},
		"tonumber":     {expr: `tonumber("1.5")`, want: cty.NumberFloatVal(1.5)},
		"tonumber bad": {expr: `tonumber("one")`, wantErr: `cannot convert "one" to number`},
		"tonumber unknown": {
			expr: `tonumber(unknown_str)`,
			want: cty.UnknownVal(cty.Number),
		},
		"tonumber sensitive unknown": {
			reason: "an unknown secret converts to an unknown secret",
			expr:   `tonumber(secret_unknown)`,
			want:   sens(cty.UnknownVal(cty.Number)),
		},
		"toset": {
			expr: `toset(["b", "a", "b"])`,
			want: cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		},
		"toset object":  {expr: `toset({a = 1})`, wantErr: "cannot convert object to set of any single type"},
		"tostring":      {expr: `tostring(12)`, want: cty.StringVal("12")},
		"tostring list": {expr: `tostring([])`, wantErr: "cannot convert tuple to string"},
		"tostring sensitive": {
			expr: `tostring(secret_num)`,
			want: sens(cty.StringVal("42")),
		},
		"try first":    {expr: `try(tonumber("x"), "fallback")`, want: cty.StringVal("fallback")},
		"try success":  {expr: `try(upper("x"), "fallback")`, want: cty.StringVal("X")},
		"try all fail": {expr: `try(tonumber("x"))`, wantErr: "no expression succeeded"},
		"can":          {expr: `can(tonumber("x"))`, want: cty.False},
		"can succeed":  {expr: `can(tonumber("1"))`, want: cty.True},
		"can arity":    {expr: `can()`, wantErr: "Not enough function arguments"},
		"sensitive": {
			expr: `sensitive("x")`,
			want: sens(cty.StringVal("x")),
		},
		"sensitive unknown": {expr: `sensitive(unknown_str)`, want: sens(cty.UnknownVal(cty.String))},
		"sensitive null":    {expr: `sensitive(null)`, want: sens(cty.NullVal(cty.DynamicPseudoType))},
		"sensitive arity":   {expr: `sensitive()`, wantErr: "Not enough function arguments"},
		"nonsensitive": {
			expr: `nonsensitive(secret)`,
			want: cty.StringVal(secretText),
		},
		"nonsensitive redundant": {
			reason:  "Terraform 1.5 treats unmarking a non-sensitive value as a mistake",
			expr:    `nonsensitive("x")`,
			wantErr: "the given value is not sensitive, so this call is redundant",
		},
		"nonsensitive nested": {
			reason:  "only the value's own mark counts; a sensitive element is out of reach",
			expr:    `nonsensitive(list_of_secrets)`,
			wantErr: "the given value is not sensitive",
		},
		"nonsensitive unknown": {
			reason: "before apply an unknown value's marks may be incomplete, so it passes",
			expr:   `nonsensitive(unknown_str)`,
			want:   cty.UnknownVal(cty.String),
		},
		"nonsensitive of a digest": {
			expr: `nonsensitive(md5(secret))`,
			want: cty.StringVal("2ab96390c7dbe3439de74d0c9b0b1767"),
		},
	})
}
