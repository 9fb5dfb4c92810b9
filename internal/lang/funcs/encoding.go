package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/go-cty-funcs/encoding"
	yaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// encodingFunctions returns Terraform's encoding functions: base64encode and
// urlencode from go-cty-funcs; csvdecode, jsondecode and jsonencode from
// go-cty's stdlib; yamldecode and yamlencode from go-cty-yaml. base64decode
// and base64gzip (below) and textencodebase64 and textdecodebase64
// (text_encoding.go) are Cairn's.
func encodingFunctions() map[string]function.Function {
	return map[string]function.Function{
		"base64decode":     makeBase64DecodeFunc(),
		"base64encode":     encoding.Base64EncodeFunc,
		"base64gzip":       makeBase64GzipFunc(),
		"csvdecode":        stdlib.CSVDecodeFunc,
		"jsondecode":       stdlib.JSONDecodeFunc,
		"jsonencode":       stdlib.JSONEncodeFunc,
		"textdecodebase64": makeTextDecodeBase64Func(),
		"textencodebase64": makeTextEncodeBase64Func(),
		"urlencode":        encoding.URLEncodeFunc,
		"yamldecode":       yaml.YAMLDecodeFunc,
		"yamlencode":       yaml.YAMLEncodeFunc,
	}
}

// makeBase64GzipFunc builds base64gzip(str): the UTF-8 bytes of str,
// gzip-compressed at the default level, then Base64-encoded. Terraform has
// it for providers that take compressed payloads as strings (user data);
// neither library does.
func makeBase64GzipFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			var buf bytes.Buffer
			w := gzip.NewWriter(&buf)
			if _, err := w.Write([]byte(args[0].AsString())); err != nil {
				return cty.NilVal, fmt.Errorf("compressing: %w", err)
			}
			if err := w.Close(); err != nil {
				return cty.NilVal, fmt.Errorf("compressing: %w", err)
			}
			return cty.StringVal(base64.StdEncoding.EncodeToString(buf.Bytes())), nil
		},
	})
}

// makeBase64DecodeFunc builds base64decode(str): the text whose UTF-8 bytes
// str encodes in standard Base64. Bytes that are not UTF-8 are an error:
// Terraform strings are text (filebase64 and the hashing functions deal in
// raw bytes).
//
// go-cty-funcs has base64decode, but on bytes that are not UTF-8 it writes
// them to the standard logger, and Cairn never lets a value that may be
// secret reach a log.
func makeBase64DecodeFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s := args[0].AsString()
			raw, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "failed to decode base64 data %q", s)
			}
			if !utf8.Valid(raw) {
				return cty.NilVal, function.NewArgErrorf(0, "the result of decoding the provided string is not valid UTF-8")
			}
			return cty.StringVal(string(raw)), nil
		},
	})
}
