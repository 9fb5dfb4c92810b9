package funcs

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// makeTextEncodeBase64Func builds textencodebase64(string, encoding_name):
// string encoded in the named character encoding (an IANA name or alias,
// looked up with golang.org/x/text's ianaindex, as Terraform does), then
// Base64-encoded. A character the encoding cannot represent is an error,
// not a silent substitution.
func makeTextEncodeBase64Func() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "string", Type: cty.String},
			{Name: "encoding", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			enc, name, err := ianaEncoding(args[1])
			if err != nil {
				return cty.NilVal, err
			}
			encoded, err := enc.NewEncoder().String(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", name)
			}
			return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(encoded))), nil
		},
	})
}

// makeTextDecodeBase64Func builds textdecodebase64(source, encoding_name),
// the inverse of textencodebase64: source is Base64-decoded, and the bytes
// are decoded from the named character encoding into a string.
func makeTextDecodeBase64Func() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "source", Type: cty.String},
			{Name: "encoding", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			enc, name, err := ianaEncoding(args[1])
			if err != nil {
				return cty.NilVal, err
			}
			raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
			if err != nil {
				if corrupt, ok := err.(base64.CorruptInputError); ok {
					return cty.NilVal, function.NewArgErrorf(0, "the given value has an invalid base64 symbol at offset %d", int64(corrupt))
				}
				return cty.NilVal, function.NewArgErrorf(0, "invalid source string: %w", err)
			}
			decoded, err := enc.NewDecoder().Bytes(raw)
			if err != nil || !utf8.Valid(decoded) {
				return cty.NilVal, function.NewArgErrorf(0, "the given value contains symbols that are not defined for %s", name)
			}
			return cty.StringVal(string(decoded)), nil
		},
	})
}

// ianaEncoding looks up the encoding named by v, an argument at index 1, and
// returns it with the name as given, for messages: the user knows that name,
// not necessarily the registry's canonical one.
func ianaEncoding(v cty.Value) (encoding.Encoding, string, error) {
	name := v.AsString()
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		// ianaindex knows some names it has no implementation for; to the
		// user that is the same as an unknown name.
		return nil, "", function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias", name)
	}
	return enc, name, nil
}
