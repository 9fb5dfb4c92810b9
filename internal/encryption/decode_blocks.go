package encryption

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// decodeKeyProvider decodes a key_provider block. Only pbkdf2 exists in
// Cairn; the cloud key providers (aws_kms, gcp_kms, azure_vault, openbao)
// and external programs are refused by name.
func decodeKeyProvider(rb *rawBlock, sc *scope) (*KeyProvider, hcl.Diagnostics) {
	if rb.typ != pbkdf2ProviderType {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported key provider",
			Detail: fmt.Sprintf("Cairn supports the \"pbkdf2\" key provider only, not %q. "+
				"Derive the key from a passphrase with key_provider \"pbkdf2\".", rb.typ),
			Subject: rb.typeRange.Ptr(),
		}}
	}
	kp := &KeyProvider{Type: rb.typ, Name: rb.name, DeclRange: rb.declRange,
		KeyLength: DefaultKeyLength, Iterations: DefaultIterations, SaltLength: DefaultSaltLength, HashFunction: DefaultHashFunction}
	diags := unknownArgs(rb, "passphrase", "key_length", "iterations", "salt_length", "hash_function", "encrypted_metadata_alias")
	if a, ok := rb.attrs["chain"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   "Cairn does not support chaining key providers; set passphrase instead of chain.",
			Subject:  a.NameRange.Ptr(),
		})
	}
	diags = append(diags, kp.decodePassphrase(rb, sc)...)
	ints := []struct {
		name string
		dst  *int
	}{{"key_length", &kp.KeyLength}, {"iterations", &kp.Iterations}, {"salt_length", &kp.SaltLength}}
	for _, arg := range ints {
		if a, ok := rb.attrs[arg.name]; ok {
			diags = append(diags, intArg(a, sc, arg.dst)...)
		}
	}
	strs := []struct {
		name string
		dst  *string
	}{{"hash_function", &kp.HashFunction}, {"encrypted_metadata_alias", &kp.MetadataAlias}}
	for _, arg := range strs {
		if a, ok := rb.attrs[arg.name]; ok {
			if v, ok, ds := stringArg(a, sc); ok {
				*arg.dst = v
			} else {
				diags = append(diags, ds...)
			}
		}
	}
	diags = append(diags, kp.check(rb)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return kp, diags
}

func (kp *KeyProvider) decodePassphrase(rb *rawBlock, sc *scope) hcl.Diagnostics {
	a, ok := rb.attrs["passphrase"]
	if !ok {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Missing passphrase",
			Detail:   fmt.Sprintf("%s needs a passphrase of at least %d characters.", kp.Addr(), MinPassphraseLength),
			Subject:  rb.declRange.Ptr(),
		}}
	}
	v, ok, diags := stringArg(a, sc)
	if !ok {
		return diags
	}
	if len(v) < MinPassphraseLength {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Passphrase too short",
			Detail:   fmt.Sprintf("The passphrase of %s must be at least %d characters long.", kp.Addr(), MinPassphraseLength),
			Subject:  a.Expr.Range().Ptr(),
		})
	}
	kp.passphrase = v
	return diags
}

// check applies OpenTofu's limits to the pbkdf2 settings.
func (kp *KeyProvider) check(rb *rawBlock) hcl.Diagnostics {
	var diags hcl.Diagnostics
	bad := func(arg, detail string) {
		rng := rb.declRange
		if a, ok := rb.attrs[arg]; ok {
			rng = a.Expr.Range()
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + arg, Detail: detail, Subject: rng.Ptr()})
	}
	if kp.KeyLength < 1 || kp.KeyLength > maxDerivedKeyLength {
		bad("key_length", fmt.Sprintf("The key length must be between 1 and %d bytes; AES-GCM takes 16, 24 or 32.", maxDerivedKeyLength))
	}
	if kp.Iterations < MinIterations || kp.Iterations > maxIterations {
		bad("iterations", fmt.Sprintf("The number of iterations must be at least %d (fewer is dangerously low); the default is %d.", MinIterations, DefaultIterations))
	}
	if kp.SaltLength < 1 || kp.SaltLength > maxDerivedKeyLength {
		bad("salt_length", fmt.Sprintf("The salt length must be between 1 and %d bytes; the default is %d.", maxDerivedKeyLength, DefaultSaltLength))
	}
	if _, ok := hashFunctions[kp.HashFunction]; !ok {
		bad("hash_function", fmt.Sprintf("The hash function must be \"sha256\" or \"sha512\", not %q.", kp.HashFunction))
	}
	return diags
}

// decodeMethod decodes a method block: aes_gcm (keys, aad) or unencrypted.
func decodeMethod(rb *rawBlock, providers map[string]*KeyProvider, sc *scope) (*Method, hcl.Diagnostics) {
	m := &Method{Type: rb.typ, Name: rb.name, DeclRange: rb.declRange}
	switch rb.typ {
	case MethodUnencrypted:
		return m, unknownArgs(rb)
	case MethodAESGCM:
	default:
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported encryption method",
			Detail:   fmt.Sprintf("Cairn supports the \"aes_gcm\" and \"unencrypted\" methods, not %q.", rb.typ),
			Subject:  rb.typeRange.Ptr(),
		}}
	}
	diags := unknownArgs(rb, "keys", "aad")
	keys, ok := rb.attrs["keys"]
	if !ok {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing keys",
			Detail:   fmt.Sprintf("%s needs keys = key_provider.pbkdf2.NAME.", m.Addr()),
			Subject:  rb.declRange.Ptr(),
		})
	}
	kp, ds := lookupRef(keys.Expr, "key_provider", providers)
	diags = append(diags, ds...)
	if kp == nil {
		// Undeclared (reported here) or invalid (reported at its block).
		return nil, diags
	}
	if !validAESKeyLength(kp.KeyLength) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid key length for AES-GCM",
			Detail:   fmt.Sprintf("%s produces %d-byte keys, but AES-GCM takes 16, 24 or 32 bytes: set its key_length.", kp.Addr(), kp.KeyLength),
			Subject:  keys.Expr.Range().Ptr(),
		})
	}
	m.Keys = kp
	if a, ok := rb.attrs["aad"]; ok {
		aad, ds := bytesArg(a, sc)
		diags = append(diags, ds...)
		m.AAD = aad
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return m, diags
}

// unknownArgs reports arguments a block does not take, in name order.
func unknownArgs(rb *rawBlock, known ...string) hcl.Diagnostics {
	var names []string
	for name := range rb.attrs {
		ok := name == "chain" && rb.typ == pbkdf2ProviderType
		for _, k := range known {
			ok = ok || k == name
		}
		if !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var diags hcl.Diagnostics
	for _, name := range names {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   fmt.Sprintf("An argument named %q is not expected in a %s %q block.", name, blockKind(rb), rb.typ),
			Subject:  rb.attrs[name].NameRange.Ptr(),
		})
	}
	return diags
}

func blockKind(rb *rawBlock) string {
	if rb.typ == pbkdf2ProviderType {
		return "key_provider"
	}
	return "method"
}

func stringArg(a *hcl.Attribute, sc *scope) (string, bool, hcl.Diagnostics) {
	v, ok, diags := evalArg(a, sc, cty.String, "a string")
	if !ok {
		return "", false, diags
	}
	return v.AsString(), true, diags
}

func intArg(a *hcl.Attribute, sc *scope, dst *int) hcl.Diagnostics {
	v, ok, diags := evalArg(a, sc, cty.Number, "a whole number")
	if !ok {
		return diags
	}
	n, acc := v.AsBigFloat().Int64()
	if acc != 0 || n < -1<<31 || n > 1<<31-1 {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Invalid value for %q", a.Name),
			Detail:   fmt.Sprintf("The %q argument must be a whole number.", a.Name),
			Subject:  a.Expr.Range().Ptr(),
		})
	}
	*dst = int(n)
	return diags
}

func boolArg(a *hcl.Attribute, sc *scope) (bool, bool, hcl.Diagnostics) {
	v, ok, diags := evalArg(a, sc, cty.Bool, "true or false")
	if !ok {
		return false, false, diags
	}
	return v.True(), true, diags
}

// bytesArg decodes aad, a list of numbers from 0 to 255.
func bytesArg(a *hcl.Attribute, sc *scope) ([]byte, hcl.Diagnostics) {
	v, ok, diags := evalArg(a, sc, cty.List(cty.Number), "a list of byte values (0 to 255)")
	if !ok {
		return nil, diags
	}
	out := make([]byte, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		n, acc := e.AsBigFloat().Int64()
		if acc != 0 || n < 0 || n > 255 {
			return nil, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid value for "aad"`,
				Detail:   "Each element of aad must be a whole number from 0 to 255.",
				Subject:  a.Expr.Range().Ptr(),
			})
		}
		out = append(out, byte(n))
	}
	return out, diags
}
