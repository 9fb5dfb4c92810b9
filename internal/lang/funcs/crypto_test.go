package funcs

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"
)

func TestHashFunctions(t *testing.T) {
	runExprCases(t, Table(testdataDir(t)), map[string]exprCase{
		"base64sha256":      {expr: `base64sha256("hello world")`, want: cty.StringVal("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=")},
		"base64sha256 list": {expr: `base64sha256([])`, wantErr: "string required"},
		"base64sha512": {
			expr: `base64sha512("hello world")`,
			want: cty.StringVal("MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw=="),
		},
		"base64sha512 list": {expr: `base64sha512([])`, wantErr: "string required"},
		"md5":               {expr: `md5("hello world")`, want: cty.StringVal("5eb63bbbe01eeed093cb22bb8f5acdc3")},
		"md5 list":          {expr: `md5([])`, wantErr: "string required"},
		"sha1":              {expr: `sha1("hello world")`, want: cty.StringVal("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed")},
		"sha1 list":         {expr: `sha1([])`, wantErr: "string required"},
		"sha256":            {expr: `sha256("hello world")`, want: cty.StringVal("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")},
		"sha256 list":       {expr: `sha256([])`, wantErr: "string required"},
		"sha256 sensitive": {
			reason: "a digest of a secret stays sensitive until nonsensitive says otherwise",
			expr:   `sha256(secret)`,
			want:   sens(cty.StringVal("f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7")),
		},
		"sha512": {
			expr: `sha512("hello world")`,
			want: cty.StringVal("309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f989dd35bc5ff499670da34255b45b0cfd830e81f605dcf7dc5542e93ae9cd76f"),
		},
		"sha512 list":      {expr: `sha512([])`, wantErr: "string required"},
		"filemd5":          {expr: `filemd5("hello.txt")`, want: cty.StringVal("b10a8db164e0754105b7a99be72e3fe5")},
		"filemd5 missing":  {expr: `filemd5("nope")`, wantErr: "no file exists at"},
		"filesha1":         {expr: `filesha1("hello.txt")`, want: cty.StringVal("0a4d55a8d778e5022fab701977c5d840bbc486d0")},
		"filesha1 missing": {expr: `filesha1("nope")`, wantErr: "no file exists at"},
		"filesha256": {
			expr: `filesha256("hello.txt")`,
			want: cty.StringVal("a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e"),
		},
		"filesha256 missing": {expr: `filesha256("nope")`, wantErr: "no file exists at"},
		"filesha256 binary": {
			reason: "file digests take any bytes, not only text",
			expr:   `filesha256("latin1.bin")`,
			want:   cty.StringVal("b3d510ef04275ca8e698e5b3cbb0ece3949ef9252f0cdc839e9ee347409a2209"),
		},
		"filesha512": {
			expr: `filesha512("hello.txt")`,
			want: cty.StringVal("2c74fd17edafd80e8447b0d46741ee243b7eb74dd2149a0ab1b9246fb30382f27e853d8585719e0e67cbda0daa8f51671064615d645ae27acb15bfb1447f459b"),
		},
		"filesha512 missing": {expr: `filesha512("nope")`, wantErr: "no file exists at"},
		"filebase64sha256": {
			expr: `filebase64sha256("hello.txt")`,
			want: cty.StringVal("pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4="),
		},
		"filebase64sha256 missing": {expr: `filebase64sha256("nope")`, wantErr: "no file exists at"},
		"filebase64sha512": {
			expr: `filebase64sha512("hello.txt")`,
			want: cty.StringVal("LHT9F+2v2A6ER7DUZ0HuJDt+t03SFJoKsbkkb7MDgvJ+hT2FhXGeDmfL2g2qj1FnEGRhXWRa4nrLFb+xRH9Fmw=="),
		},
		"filebase64sha512 missing": {expr: `filebase64sha512("nope")`, wantErr: "no file exists at"},
		"uuidv5": {
			expr: `uuidv5("dns", "tada")`,
			want: cty.StringVal("faa898db-9b9d-5b75-86a9-149e7bb8e3b8"),
		},
		"uuidv5 bad namespace": {expr: `uuidv5("tada", "tada")`, wantErr: "doesn't support namespace"},
		"bcrypt cost":          {expr: `bcrypt("x", 40)`, wantErr: "cost 40 is outside allowed"},
		"uuid arity":           {expr: `uuid("x")`, wantErr: "Too many function arguments"},
	})
}

// TestRandomizedFunctions checks uuid and bcrypt by their properties, since
// each call gives a new result.
func TestRandomizedFunctions(t *testing.T) {
	tbl := Table(t.TempDir())
	uuidPattern := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

	u, err := tbl["uuid"].Call(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !uuidPattern.MatchString(u.AsString()) {
		t.Errorf("uuid() = %q, want a random (version 4) UUID", u.AsString())
	}

	h, err := tbl["bcrypt"].Call([]cty.Value{cty.StringVal("hello"), cty.NumberIntVal(4)})
	if err != nil {
		t.Fatal(err)
	}
	if err := bcrypt.CompareHashAndPassword([]byte(h.AsString()), []byte("hello")); err != nil {
		t.Errorf("bcrypt result %q does not verify: %s", h.AsString(), err)
	}
	if cost, _ := bcrypt.Cost([]byte(h.AsString())); cost != 4 {
		t.Errorf("bcrypt cost = %d, want 4", cost)
	}
}

func TestRSADecrypt(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ciphertext, err := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, []byte("Hello, world!"))
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]cty.Value{
		"ciphertext": cty.StringVal(base64.StdEncoding.EncodeToString(ciphertext)),
		"pkcs1":      cty.StringVal(string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))),
		"pkcs8":      cty.StringVal(string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}))),
		"encrypted": cty.StringVal(string(pem.EncodeToMemory(&pem.Block{
			Type: "RSA PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: []byte{1},
		}))),
	}

	cases := map[string]struct {
		reason  string
		expr    string
		want    cty.Value
		wantErr string
	}{
		"PKCS #1 key":  {expr: `rsadecrypt(ciphertext, pkcs1)`, want: cty.StringVal("Hello, world!")},
		"PKCS #8 key":  {reason: "Terraform 1.5 reads PKCS #8 keys too", expr: `rsadecrypt(ciphertext, pkcs8)`, want: cty.StringVal("Hello, world!")},
		"bad base64":   {expr: `rsadecrypt("!!", pkcs1)`, wantErr: "cipher text must be base64-encoded"},
		"not a key":    {expr: `rsadecrypt(ciphertext, "nope")`, wantErr: "no PEM-encoded key found"},
		"password key": {expr: `rsadecrypt(ciphertext, encrypted)`, wantErr: "password-protected keys are not supported"},
		"wrong key":    {expr: `rsadecrypt("AAAA", pkcs1)`, wantErr: "failed to decrypt"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(tc.expr), "test.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got, diags := expr.Value(&hcl.EvalContext{Variables: vars, Functions: Table(t.TempDir())})
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Errorf("%s\n%s: got %#v, %v; want an error containing %q", tc.reason, tc.expr, got, diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("%s: %s", tc.expr, diags.Error())
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("%s\n%s = %#v, want %#v", tc.reason, tc.expr, got, tc.want)
			}
		})
	}
}
