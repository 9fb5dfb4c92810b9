package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"

	"github.com/hashicorp/go-cty-funcs/encoding"
	"github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// encodingFunctions returns Terraform's encoding functions: base64decode,
// base64encode and urlencode from go-cty-funcs; csvdecode, jsondecode and
// jsonencode from go-cty's stdlib; yamldecode and yamlencode from
// go-cty-yaml. base64gzip (below) and textencodebase64 and textdecodebase64
// (text_encoding.go) are Cairn's.
func encodingFunctions() map[string]function.Function {
	return map[string]function.Function{
		"base64decode":     encoding.Base64DecodeFunc,
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
