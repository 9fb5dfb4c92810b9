package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestEncodingFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"base64decode":     {expr: `base64decode("aGVsbG8=")`, want: cty.StringVal("hello")},
		"base64decode bad": {expr: `base64decode("!!")`, wantErr: "failed to decode base64 data"},
		"base64decode not UTF-8": {
			reason:  "Terraform strings are text",
			expr:    `base64decode("/w==")`,
			wantErr: "not valid UTF-8",
		},
		"base64decode sensitive": {
			reason:  "go-cty-funcs quotes the input in its message",
			expr:    `base64decode(secret)`,
			wantErr: hiddenReason,
		},
		"base64encode":      {expr: `base64encode("hello")`, want: cty.StringVal("aGVsbG8=")},
		"base64encode list": {expr: `base64encode([])`, wantErr: "string required"},
		"base64gzip list":   {expr: `base64gzip([])`, wantErr: "string required"},
		"csvdecode": {
			expr: "csvdecode(\"a,b\\n1,2\\n\")",
			want: cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
				"a": cty.StringVal("1"), "b": cty.StringVal("2"),
			})}),
		},
		"csvdecode ragged": {expr: "csvdecode(\"a,b\\n1\\n\")", wantErr: "wrong number of fields"},
		"jsondecode": {
			expr: `jsondecode("{\"a\": [1, true]}")`,
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{num(1), cty.True})}),
		},
		"jsondecode bad": {expr: `jsondecode("{")`, wantErr: "EOF"},
		"jsondecode sensitive": {
			expr:    `jsondecode(secret)`,
			wantErr: hiddenReason,
		},
		"jsonencode":         {expr: `jsonencode({a = [1, "x"]})`, want: cty.StringVal(`{"a":[1,"x"]}`)},
		"jsonencode arity":   {expr: `jsonencode()`, wantErr: "Not enough function arguments"},
		"jsonencode unknown": {expr: `jsonencode({a = unknown_str})`, want: cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("{").NewValue()},
		"textencodebase64": {
			expr: `textencodebase64("Hello World", "UTF-16LE")`,
			want: cty.StringVal("SABlAGwAbABvACAAVwBvAHIAbABkAA=="),
		},
		"textencodebase64 alias": {
			reason: "IANA aliases are accepted",
			expr:   `textencodebase64("é", "latin1")`,
			want:   cty.StringVal("6Q=="),
		},
		"textencodebase64 unknown encoding": {
			expr:    `textencodebase64("x", "no-such-charset")`,
			wantErr: `"no-such-charset" is not a supported IANA encoding name or alias`,
		},
		"textencodebase64 unrepresentable": {
			expr:    `textencodebase64("日本", "ISO-8859-1")`,
			wantErr: "cannot be represented in ISO-8859-1",
		},
		"textdecodebase64": {
			expr: `textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`,
			want: cty.StringVal("Hello World"),
		},
		"textdecodebase64 bad base64": {
			expr:    `textdecodebase64("SABl!", "UTF-16LE")`,
			wantErr: "invalid base64 symbol at offset 4",
		},
		"urlencode":      {expr: `urlencode("a b&c/d")`, want: cty.StringVal("a+b%26c%2Fd")},
		"urlencode list": {expr: `urlencode([])`, wantErr: "string required"},
		"yamldecode": {
			expr: "yamldecode(\"a: 1\\nb: [x]\\n\")",
			want: cty.ObjectVal(map[string]cty.Value{
				"a": num(1),
				"b": cty.TupleVal([]cty.Value{cty.StringVal("x")}),
			}),
		},
		"yamldecode bad": {expr: `yamldecode("a: [")`, wantErr: "did not find expected node content"},
		"yamlencode": {
			expr: `yamlencode({a = 1, b = ["x"]})`,
			want: cty.StringVal("\"a\": 1\n\"b\":\n- \"x\"\n"),
		},
		"yamlencode arity": {expr: `yamlencode()`, wantErr: "Not enough function arguments"},
	})
}

// TestBase64Gzip checks base64gzip by undoing it: the exact compressed bytes
// depend on the compressor, what matters is that any gzip reader gets the
// text back.
func TestBase64Gzip(t *testing.T) {
	cases := map[string]struct {
		reason string
		text   string
	}{
		"text":  {reason: "ordinary text survives", text: "hello, world\n"},
		"empty": {reason: "an empty string is still a valid gzip stream", text: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Table(t.TempDir())["base64gzip"].Call([]cty.Value{cty.StringVal(tc.text)})
			if err != nil {
				t.Fatal(err)
			}
			raw, err := base64.StdEncoding.DecodeString(got.AsString())
			if err != nil {
				t.Fatalf("%s: result is not Base64: %s", tc.reason, err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("%s: result is not gzip: %s", tc.reason, err)
			}
			text, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if string(text) != tc.text {
				t.Errorf("%s: round trip gave %q, want %q", tc.reason, text, tc.text)
			}
		})
	}
}
