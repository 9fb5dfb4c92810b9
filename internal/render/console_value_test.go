package render

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestConsoleValue(t *testing.T) {
	tests := map[string]struct {
		reason string
		val    cty.Value
		want   string
	}{
		"string": {
			reason: "one-line strings are quoted with Go escapes",
			val:    cty.StringVal(`a "b"`),
			want:   `"a \"b\""`,
		},
		"heredoc": {
			reason: "a multi-line string at top level is a plain heredoc",
			val:    cty.StringVal("a\nb"),
			want:   "<<EOT\na\nb\nEOT",
		},
		"heredoc delimiter clash": {
			reason: "the delimiter grows until no line equals it",
			val:    cty.StringVal("EOT\nx"),
			want:   "<<EOT_\nEOT\nx\nEOT_",
		},
		"big number": {
			reason: "numbers print in full, never in exponent form",
			val:    cty.MustParseNumberVal("10000000000000000000000"),
			want:   "10000000000000000000000",
		},
		"typed nulls": {
			reason: "a null shows its type as the conversion producing it",
			val: cty.TupleVal([]cty.Value{cty.NullVal(cty.String), cty.NullVal(cty.List(cty.Number)),
				cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.Bool}))}),
			want: "[\n  tostring(null),\n  tolist(null) /* of number */,\n  null,\n  null /* object */,\n]",
		},
		"collections": {
			reason: "lists, sets and maps are wrapped in their conversion; keys quoted",
			val: cty.ObjectVal(map[string]cty.Value{
				"l": cty.ListValEmpty(cty.String),
				"m": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("a\nb")}),
				"s": cty.SetVal([]cty.Value{cty.True}),
			}),
			want: "{\n  \"l\" = tolist([])\n  \"m\" = tomap({\n    \"k\" = <<-EOT\n    a\n    b\n    EOT\n  })\n  \"s\" = toset([\n    true,\n  ])\n}",
		},
		"unknown and sensitive": {
			reason: "unknown wins over sensitive; sensitive hides only its element",
			val: cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String).Mark(configschema.SensitiveMark),
				cty.StringVal("x").Mark(configschema.SensitiveMark), cty.NumberIntVal(1)}),
			want: "[\n  (known after apply),\n  (sensitive value),\n  1,\n]",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ConsoleValue(tc.val, marks.Secrets{})); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestConsoleType(t *testing.T) {
	tests := map[string]struct {
		reason string
		ty     cty.Type
		want   string
	}{
		"primitive": {reason: "primitives by name", ty: cty.Number, want: "number"},
		"dynamic":   {reason: "any type shows as dynamic", ty: cty.DynamicPseudoType, want: "dynamic"},
		"object": {
			reason: "attributes sorted, four-space indent",
			ty:     cty.Object(map[string]cty.Type{"b": cty.Bool, "a": cty.Tuple([]cty.Type{cty.String})}),
			want:   "object({\n    a: tuple([\n        string,\n    ]),\n    b: bool,\n})",
		},
		"list of objects": {
			reason: "an object element goes on its own line",
			ty:     cty.List(cty.Object(map[string]cty.Type{"a": cty.String})),
			want:   "list(\n    object({\n        a: string,\n    }),\n)",
		},
		"empty": {reason: "empty structural types inline", ty: cty.EmptyObject, want: "object({})"},
		"map":   {reason: "collections of primitives inline", ty: cty.Map(cty.String), want: "map(string)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ConsoleType(tc.ty)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
