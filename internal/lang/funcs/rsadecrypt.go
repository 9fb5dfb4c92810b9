package funcs

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// makeRSADecryptFunc builds rsadecrypt(ciphertext, privatekey): the
// plaintext of a Base64-encoded ciphertext padded with PKCS #1 v1.5, using
// an unencrypted PEM-encoded RSA private key.
//
// go-cty-funcs has rsadecrypt, but it reads only PKCS #1 keys ("RSA PRIVATE
// KEY"); Terraform 1.5 also takes PKCS #8 ("PRIVATE KEY"), which is what
// most tools write today. Messages never include the key.
func makeRSADecryptFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "ciphertext", Type: cty.String},
			{Name: "privatekey", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			ciphertext, err := base64.StdEncoding.DecodeString(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "failed to decode input: cipher text must be base64-encoded")
			}
			key, err := parseRSAPrivateKey([]byte(args[1].AsString()))
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "failed to parse key: %w", err)
			}
			out, err := rsa.DecryptPKCS1v15(nil, key, ciphertext)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "failed to decrypt: %w", err)
			}
			if !utf8.Valid(out) {
				return cty.NilVal, function.NewArgErrorf(0, "the decrypted message is not valid UTF-8 text")
			}
			return cty.StringVal(string(out)), nil
		},
	})
}

func parseRSAPrivateKey(pemBytes []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("no PEM-encoded key found")
	}
	if block.Headers["Proc-Type"] == "4,ENCRYPTED" {
		return nil, errors.New("password-protected keys are not supported; decrypt the key first")
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		return x509.ParsePKCS1PrivateKey(block.Bytes)
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, err
		}
		rsaKey, ok := k.(*rsa.PrivateKey)
		if !ok {
			return nil, errors.New("the key is not an RSA key")
		}
		return rsaKey, nil
	default:
		return nil, errors.New("unsupported PEM block type " + block.Type + `; want "RSA PRIVATE KEY" or "PRIVATE KEY"`)
	}
}
