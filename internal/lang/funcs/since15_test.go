package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/marks"
)

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

func TestLaterFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"issensitive true":  {reason: "a sensitive value", expr: `issensitive(secret)`, want: cty.True},
		"issensitive false": {reason: "a plain value", expr: `issensitive("x")`, want: cty.False},
		"issensitive nested": {reason: "only the value's own mark counts, as in OpenTofu",
			expr: `issensitive(list_of_secrets)`, want: cty.False},
		"issensitive unknown": {reason: "an unknown value's marks are not settled",
			expr: `issensitive(unknown_str)`, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
		"issensitive null": {reason: "null is a value like another", expr: `issensitive(null)`, want: cty.False},

		"urldecode": {reason: "query escapes", expr: `urldecode("a%20b+c%2Fd")`, want: cty.StringVal("a b c/d")},
		"urldecode roundtrip": {reason: "the inverse of urlencode",
			expr: `urldecode(urlencode("x y&z=é"))`, want: cty.StringVal("x y&z=é")},
		"urldecode bad": {reason: "OpenTofu's message", expr: `urldecode("%zz")`,
			wantErr: `failed to decode URL '': invalid URL escape "%zz"`},
		"urldecode secret": {reason: "sensitive in, sensitive out", expr: `urldecode(secret)`,
			want: sens(cty.StringVal(secretText))},

		"base64gunzip": {reason: "the inverse of base64gzip", expr: `base64gunzip(base64gzip("hello"))`,
			want: cty.StringVal("hello")},
		"base64gunzip literal": {reason: "gzip from elsewhere", expr: `base64gunzip("` + gz("abc") + `")`,
			want: cty.StringVal("abc")},
		"base64gunzip bad base64": {reason: "OpenTofu's message", expr: `base64gunzip("!!")`,
			wantErr: `failed to decode base64 data "!!"`},
		"base64gunzip not gzip": {reason: "OpenTofu's message", expr: `base64gunzip("aGVsbG8=")`,
			wantErr: "failed to gunzip bytestream"},

		"cidrcontains ip":     {reason: "an address in the prefix", expr: `cidrcontains("10.0.0.0/8", "10.1.2.3")`, want: cty.True},
		"cidrcontains ip out": {reason: "an address outside", expr: `cidrcontains("10.0.0.0/8", "11.0.0.1")`, want: cty.False},
		"cidrcontains prefix": {reason: "a prefix wholly inside", expr: `cidrcontains("10.0.0.0/8", "10.2.0.0/16")`, want: cty.True},
		"cidrcontains prefix wider": {reason: "a wider prefix is not inside",
			expr: `cidrcontains("10.0.0.0/16", "10.0.0.0/8")`, want: cty.False},
		"cidrcontains ipv6": {reason: "IPv6 too", expr: `cidrcontains("fd00::/8", "fd12::1")`, want: cty.True},
		"cidrcontains legacy octets": {reason: "leading zeros read as decimal, as the other IP functions",
			expr: `cidrcontains("010.0.0.0/8", "10.0.0.1")`, want: cty.True},
		"cidrcontains family": {reason: "mixing families is an error, not false",
			expr: `cidrcontains("10.0.0.0/8", "::1")`, wantErr: "address family mismatch: 10.0.0.0/8 vs. ::1"},
		"cidrcontains bad prefix": {reason: "OpenTofu's message", expr: `cidrcontains("x", "10.0.0.1")`,
			wantErr: "invalid CIDR address: x"},
		"cidrcontains bad addr": {reason: "OpenTofu's message", expr: `cidrcontains("10.0.0.0/8", "y")`,
			wantErr: "invalid IP address or prefix: y"},

		"convert list": {reason: "an empty tuple to a typed list", expr: `convert([], list(string))`,
			want: cty.ListValEmpty(cty.String)},
		"convert set of lists": {reason: "nested collections", expr: `convert([[1, 2]], set(list(number)))`,
			want: cty.SetVal([]cty.Value{cty.ListVal([]cty.Value{num(1), num(2)})})},
		"convert optional defaults": {reason: "optional attributes with defaults, as in a variable's type",
			expr: `convert({test = {}}, map(object({attr = optional(string), with_default = optional(string, "default")})))`,
			want: cty.MapVal(map[string]cty.Value{"test": cty.ObjectVal(map[string]cty.Value{
				"attr": cty.NullVal(cty.String), "with_default": cty.StringVal("default")})})},
		"convert primitive": {reason: "as tobool", expr: `convert("true", bool)`, want: cty.True},
		"convert keeps inner marks": {reason: "like tomap, only the sensitive element stays marked",
			expr: `convert({a = secret, b = "x"}, map(string))`,
			want: cty.MapVal(map[string]cty.Value{"a": sens(cty.StringVal(secretText)), "b": cty.StringVal("x")})},
		"convert unknown": {reason: "unknown in, unknown out", expr: `convert(unknown_str, string)`,
			want: cty.UnknownVal(cty.String)},
		"convert fails": {reason: "a value that does not convert", expr: `convert("x", number)`,
			wantErr: "a number is required"},
		"convert mismatch": {reason: "types that never convert", expr: `convert({a = 1}, list(string))`,
			wantErr: "list of string required"},
		"convert secret error hidden": {reason: "no secret in errors", expr: `convert(secret, number)`,
			wantErr: hiddenReason},
		"convert bad type": {reason: "the second argument is a type expression", expr: `convert(1, nope)`,
			wantErr: "not a valid type"},

		"templatestring": {reason: "a template in a string", expr: `templatestring("Hi $${name}!", {name = "x"})`,
			want: cty.StringVal("Hi x!")},
		"templatestring directives": {reason: "for directives and functions",
			expr: `templatestring("%%{ for i in items }$${upper(i)}%%{ endfor }", {items = ["a", "b"]})`,
			want: cty.StringVal("AB")},
		"templatestring single interpolation": {reason: "keeps the value's type, as templatefile",
			expr: `templatestring("$${x}", {x = [1]})`, want: cty.TupleVal([]cty.Value{num(1)})},
		"templatestring missing var": {reason: "OpenTofu's message, without a place",
			expr: `templatestring("$${nope}", {})`, wantErr: `vars map does not contain key "nope"`},
		"templatestring bad vars": {reason: "vars must be a map", expr: `templatestring("x", "y")`,
			wantErr: "invalid vars value: must be a map"},
		"templatestring syntax": {reason: "a parse error", expr: `templatestring("$${", {})`,
			wantErr: "parsing template"},
		"templatestring secret syntax": {reason: "a sensitive template's parse error would quote it",
			expr: `templatestring(sensitive("$${"), {})`, wantErr: hiddenReason},
		"templatestring recursion": {reason: "no recursion",
			expr: `templatestring("$${templatestring(\"a\", {})}", {})`, wantErr: "cannot recursively call templatestring"},
		"templatestring secret var": {reason: "marks of the vars it uses",
			expr: `templatestring("$${s}", {s = secret})`, want: sens(cty.StringVal(secretText))},
		"templatestring unknown": {reason: "unknown template", expr: `templatestring(unknown_str, {})`,
			want: cty.DynamicVal},

		"core namespace": {reason: "OpenTofu's core:: names the built-ins", expr: `core::upper("x")`,
			want: cty.StringVal("X")},

		"encode_tfvars": {reason: "a .tfvars file's content",
			expr: `provider::terraform::encode_tfvars({a = 1, b = "x", c = {d = [1, 2]}})`,
			want: cty.StringVal("a = 1\nb = \"x\"\nc = {\n  d = [1, 2]\n}\n")},
		"encode_tfvars not object": {reason: "OpenTofu's message", expr: `provider::terraform::encode_tfvars("x")`,
			wantErr: "invalid input: must be an object"},
		"encode_tfvars null": {reason: "a provider function's argument may not be null, as in OpenTofu",
			expr: `provider::terraform::encode_tfvars(tomap(null))`, wantErr: "argument must not be null"},
		"encode_tfvars untyped null": {reason: "go-cty's check, as in OpenTofu",
			expr: `provider::terraform::encode_tfvars(null)`, wantErr: "argument must not be null"},
		"encode_tfvars whole unknown": {reason: "no call",
			expr: `provider::terraform::encode_tfvars(unknown_any)`, want: cty.DynamicVal},
		"encode_tfvars bad key": {reason: "keys must be identifiers",
			expr: `provider::terraform::encode_tfvars({"a b" = 1})`, wantErr: "invalid input: object key: a b - must be a valid identifier"},
		"encode_tfvars unknown": {reason: "an unknown attribute makes the result unknown",
			expr: `provider::terraform::encode_tfvars({a = unknown_str})`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		"decode_tfvars": {reason: "the most general types",
			expr: `provider::terraform::decode_tfvars("a = 1\nb = [true]\nc = { d = \"x\" }")`,
			want: cty.ObjectVal(map[string]cty.Value{"a": num(1), "b": cty.TupleVal([]cty.Value{cty.True}),
				"c": cty.ObjectVal(map[string]cty.Value{"d": cty.StringVal("x")})})},
		"decode_tfvars reference": {reason: "only constants",
			expr: `provider::terraform::decode_tfvars("a = var.x")`, wantErr: "failed to decode tfvars content"},
		"decode_tfvars block": {reason: "only attributes",
			expr: `provider::terraform::decode_tfvars("b {}")`, wantErr: "failed to decode tfvars content"},
		"decode_tfvars syntax": {reason: "a syntax error",
			expr: `provider::terraform::decode_tfvars("a = ")`, wantErr: "failed to decode tfvars content"},
		"encode_expr": {reason: "expression syntax", expr: `provider::terraform::encode_expr({a = [1, "x"]})`,
			want: cty.StringVal("{\n  a = [1, \"x\"]\n}")},
		"encode_expr string": {reason: "a quoted string", expr: `provider::terraform::encode_expr("x")`,
			want: cty.StringVal(`"x"`)},
		"encode_expr unknown": {reason: "OpenTofu's message",
			expr: `provider::terraform::encode_expr([unknown_str])`, wantErr: "input is not wholly known"},
		"encode_expr secret": {reason: "sensitive in, sensitive out",
			expr: `provider::terraform::encode_expr(secret)`, want: sens(cty.StringVal(`"` + secretText + `"`))},
	})
}

func TestEphemeralAsNull(t *testing.T) {
	eph := func(v cty.Value) cty.Value { return v.Mark(marks.Ephemeral) }
	tbl := Table(t.TempDir())
	cases := map[string]struct {
		in, want cty.Value
	}{
		"plain":           {cty.StringVal("x"), cty.StringVal("x")},
		"ephemeral":       {eph(cty.StringVal("x")), cty.NullVal(cty.String)},
		"nested":          {cty.ObjectVal(map[string]cty.Value{"a": eph(cty.StringVal("x")), "b": cty.StringVal("y")}), cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.StringVal("y")})},
		"whole list":      {eph(cty.ListVal([]cty.Value{cty.StringVal("x")})), cty.NullVal(cty.List(cty.String))},
		"keeps sensitive": {eph(sens(cty.StringVal("x"))), sens(cty.NullVal(cty.String))},
		"unknown":         {cty.UnknownVal(cty.String), cty.UnknownVal(cty.String)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tbl["ephemeralasnull"].Call([]cty.Value{tc.in})
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}
