package funcs

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"

	"github.com/hashicorp/go-cty-funcs/crypto"
	"github.com/hashicorp/go-cty-funcs/uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// cryptoFunctions returns Terraform's hash and crypto functions. md5, sha1,
// sha256, sha512 and bcrypt come from go-cty-funcs' crypto package, uuid and
// uuidv5 from its uuid package. Cairn adds the Base64 digests, the file
// digests (reading through file_read.go) and rsadecrypt (rsadecrypt.go).
func cryptoFunctions(baseDir string) map[string]function.Function {
	return map[string]function.Function{
		"base64sha256":     makeStringHashFunc(sha256.New, base64Encode),
		"base64sha512":     makeStringHashFunc(sha512.New, base64Encode),
		"bcrypt":           crypto.BcryptFunc,
		"filebase64sha256": makeFileFunc(baseDir, fileHash(sha256.New, base64Encode)),
		"filebase64sha512": makeFileFunc(baseDir, fileHash(sha512.New, base64Encode)),
		"filemd5":          makeFileFunc(baseDir, fileHash(md5.New, hex.EncodeToString)),
		"filesha1":         makeFileFunc(baseDir, fileHash(sha1.New, hex.EncodeToString)),
		"filesha256":       makeFileFunc(baseDir, fileHash(sha256.New, hex.EncodeToString)),
		"filesha512":       makeFileFunc(baseDir, fileHash(sha512.New, hex.EncodeToString)),
		"md5":              crypto.Md5Func,
		"rsadecrypt":       makeRSADecryptFunc(),
		"sha1":             crypto.Sha1Func,
		"sha256":           crypto.Sha256Func,
		"sha512":           crypto.Sha512Func,
		"uuid":             uuid.V4Func,
		"uuidv5":           uuid.V5Func,
	}
}

func base64Encode(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// makeStringHashFunc builds a function that hashes the UTF-8 bytes of its
// string argument with newHash and renders the digest with encode.
// go-cty-funcs has the same shape for the hex digests but keeps it private.
func makeStringHashFunc(newHash func() hash.Hash, encode func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			h := newHash()
			h.Write([]byte(args[0].AsString()))
			return cty.StringVal(encode(h.Sum(nil))), nil
		},
	})
}

// fileHash is the result of a file hashing function: the digest of the
// file's raw bytes, which need not be UTF-8.
func fileHash(newHash func() hash.Hash, encode func([]byte) string) func(string, []byte) (cty.Value, error) {
	return func(_ string, src []byte) (cty.Value, error) {
		h := newHash()
		h.Write(src)
		return cty.StringVal(encode(h.Sum(nil))), nil
	}
}
