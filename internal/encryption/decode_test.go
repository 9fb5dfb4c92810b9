package encryption

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// diagKey is how decode tests compare diagnostics: summary and where.
type diagKey struct {
	Summary string
	Line    int
	Column  int
}

func keysOf(diags hcl.Diagnostics) []diagKey {
	var out []diagKey
	for _, d := range diags {
		k := diagKey{Summary: d.Summary}
		if d.Subject != nil {
			k.Line, k.Column = d.Subject.Start.Line, d.Subject.Start.Column
		}
		out = append(out, k)
	}
	return out
}

func TestDecodeDiagnostics(t *testing.T) {
	cases := map[string]struct {
		reason string
		src    string
		want   []diagKey
	}{
		"valid": {
			reason: "a complete configuration decodes; the unencrypted method (OpenTofu's reminder, at the block) and the per-data-source block, which Cairn does not apply, are warnings",
			src: fastProvider("k", "a-long-enough-passphrase") + `method "unencrypted" "m" {}
state {
  method   = method.aes_gcm.k
  fallback { method = method.unencrypted.m }
}
plan {
  method   = method.aes_gcm.k
  enforced = true
}
remote_state_data_sources {
  default { method = method.aes_gcm.k }
  remote_state_data_source "net" { method = method.aes_gcm.k }
}`,
			want: []diagKey{{"Unencrypted method configured", 0, 0}, {"Per-data-source remote state encryption is not supported", 20, 3}},
		},
		"short passphrase": {
			reason: "OpenTofu's minimum of 16 characters, at the value",
			src:    `key_provider "pbkdf2" "k" { passphrase = "short" }`,
			want:   []diagKey{{"Passphrase too short", 1, 42}},
		},
		"missing passphrase": {
			reason: "at the block",
			src:    `key_provider "pbkdf2" "k" {}`,
			want:   []diagKey{{"Missing passphrase", 1, 1}},
		},
		"low iterations": {
			reason: "fewer than 200000 iterations are refused",
			src: `key_provider "pbkdf2" "k" {
  passphrase = "a-long-enough-passphrase"
  iterations = 1000
}`,
			want: []diagKey{{"Invalid iterations", 3, 16}},
		},
		"hash function": {
			reason: "sha256 and sha512 only",
			src: `key_provider "pbkdf2" "k" {
  passphrase    = "a-long-enough-passphrase"
  hash_function = "md5"
}`,
			want: []diagKey{{"Invalid hash_function", 3, 19}},
		},
		"aes key length": {
			reason: "aes_gcm takes 16, 24 or 32 byte keys",
			src: `key_provider "pbkdf2" "k" {
  passphrase = "a-long-enough-passphrase"
  key_length = 20
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }`,
			want: []diagKey{{"Invalid key length for AES-GCM", 5, 31}},
		},
		"unsupported provider": {
			reason: "cloud key providers are refused at the type label",
			src:    `key_provider "aws_kms" "k" { kms_key_id = "x" }`,
			want:   []diagKey{{"Unsupported key provider", 1, 14}},
		},
		"unknown argument": {
			reason: "at the argument's name",
			src: `key_provider "pbkdf2" "k" {
  passphrase = "a-long-enough-passphrase"
  rounds     = 3
}`,
			want: []diagKey{{"Unsupported argument", 3, 3}},
		},
		"undeclared provider": {
			reason: "keys naming no key_provider block",
			src:    `method "aes_gcm" "m" { keys = key_provider.pbkdf2.nope }`,
			want:   []diagKey{{"Reference to undeclared key provider", 1, 31}},
		},
		"undeclared method": {
			reason: "state naming no method block",
			src:    `state { method = method.aes_gcm.nope }`,
			want:   []diagKey{{"Reference to undeclared encryption method", 1, 18}},
		},
		"not a reference": {
			reason: "method must be a reference, not a string",
			src:    `state { method = "method.aes_gcm.x" }`,
			want:   []diagKey{{"Invalid method reference", 1, 18}},
		},
		"missing method": {
			reason: "a state block without method",
			src:    `state { enforced = true }`,
			want:   []diagKey{{"Missing encryption method", 1, 1}},
		},
		"enforced unencrypted": {
			reason: "enforced forbids unencrypted in the fallback chain",
			src: fastProvider("k", "a-long-enough-passphrase") + `method "unencrypted" "m" {}
state {
  method   = method.aes_gcm.k
  enforced = true
  fallback { method = method.unencrypted.m }
}`,
			want: []diagKey{{"Unencrypted method configured", 0, 0}, {"Unencrypted method is forbidden", 13, 23}},
		},
		"duplicate": {
			reason: "two providers with one name",
			src:    fastProvider("k", "a-long-enough-passphrase") + fastProvider("k", "a-long-enough-passphrase"),
			want:   []diagKey{{"Duplicate key provider", 9, 1}, {"Duplicate method", 14, 1}},
		},
		"chain": {
			reason: "chained key providers are not supported",
			src: `key_provider "pbkdf2" "k" {
  passphrase = "a-long-enough-passphrase"
  chain      = key_provider.pbkdf2.other
}`,
			want: []diagKey{{"Unsupported argument", 3, 3}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := parseBlock(t, tc.src, "", nil)
			if diff := cmp.Diff(tc.want, keysOf(diags)); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
			for _, d := range diags {
				if strings.Contains(d.Detail, "a-long-enough-passphrase") {
					t.Errorf("%s: a diagnostic quotes the passphrase: %s", tc.reason, d.Detail)
				}
			}
		})
	}
}

func TestDecodeDefaultsAndVariables(t *testing.T) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{"pass": cty.StringVal("passphrase-from-a-variable")}),
	}}
	cfg, diags := parseBlock(t, `key_provider "pbkdf2" "k" { passphrase = var.pass }
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }`, "", ctx)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	kp := cfg.KeyProviders[0]
	got := []any{kp.passphrase, kp.KeyLength, kp.Iterations, kp.SaltLength, kp.HashFunction, cfg.State.Method.Keys == kp}
	want := []any{"passphrase-from-a-variable", 32, 600000, 32, "sha512", true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
	if s := cfg.KeyProviders[0].String(); s != "key_provider.pbkdf2.k" {
		t.Errorf("String() = %q; it must name the provider, never show the passphrase", s)
	}
}

func TestDecodeEnvironment(t *testing.T) {
	cases := map[string]struct {
		reason       string
		block        string
		env          string
		wantPass     string
		wantEnforced bool
		wantMethod   string
	}{
		"env only": {
			reason:     "TF_ENCRYPTION alone configures encryption",
			env:        fastProvider("k", "passphrase-from-the-env") + `state { method = method.aes_gcm.k }`,
			wantPass:   "passphrase-from-the-env",
			wantMethod: "method.aes_gcm.k",
		},
		"env overrides an argument": {
			reason:       "a key provider of the same name takes the env's passphrase; enforced from the block stays",
			block:        fastProvider("k", "passphrase-in-the-block") + "state {\n  method = method.aes_gcm.k\n  enforced = true\n}",
			env:          `key_provider "pbkdf2" "k" { passphrase = "passphrase-from-the-env" }`,
			wantPass:     "passphrase-from-the-env",
			wantEnforced: true,
			wantMethod:   "method.aes_gcm.k",
		},
		"json": {
			reason:     "TF_ENCRYPTION in JSON",
			block:      fastProvider("k", "passphrase-in-the-block"),
			env:        `{"state": {"method": "${method.aes_gcm.k}"}}`,
			wantPass:   "passphrase-in-the-block",
			wantMethod: "method.aes_gcm.k",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, diags := parseBlock(t, tc.block, tc.env, nil)
			if diags.HasErrors() {
				t.Fatalf("%s: %s", tc.reason, diags)
			}
			got := []any{cfg.State.Method.Keys.passphrase, cfg.State.Enforced, cfg.State.Method.Addr()}
			want := []any{tc.wantPass, tc.wantEnforced, tc.wantMethod}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDecodeNothing(t *testing.T) {
	cfg, diags := Decode(nil, hcl.Range{}, "", nil)
	if cfg != nil || diags != nil {
		t.Errorf("got %v, %v; want nil, nil", cfg, diags)
	}
	if cfg.StateTarget().Encrypted() || cfg.PlanTarget().Encrypted() {
		t.Error("a nil Config must yield targets that do not encrypt")
	}
}

func TestValidate(t *testing.T) {
	unknownVars := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{"pass": cty.DynamicVal}),
	}}
	cases := map[string]struct {
		reason string
		src    string
		want   []diagKey
	}{
		"unknown passphrase": {
			reason: "a passphrase from a variable with no value yet is taken on trust",
			src: `key_provider "pbkdf2" "k" { passphrase = var.pass }
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }`,
		},
		"bad reference": {
			reason: "references are still checked",
			src: `key_provider "pbkdf2" "k" { passphrase = var.pass }
state { method = method.aes_gcm.nope }`,
			want: []diagKey{{"Reference to undeclared encryption method", 2, 18}},
		},
		"literal setting": {
			reason: "known values are still checked",
			src: `key_provider "pbkdf2" "k" {
  passphrase = var.pass
  iterations = 10
}`,
			want: []diagKey{{"Invalid iterations", 3, 16}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, diags := hclsyntax.ParseConfig([]byte(tc.src), "main.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got := Validate(f.Body, hcl.Range{Filename: "main.tf"}, "", unknownVars)
			if diff := cmp.Diff(tc.want, keysOf(got)); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

// TestDecodeNoValue: an argument that cannot be evaluated for want of a
// variable's value is one error naming the variable, whether it reads it
// directly, through a local or inside a template, or the variable is
// null; the method and targets that use the key provider are not reported
// again. References to undeclared variables and locals get Terraform's
// messages. The command marks variables without a value with NoValue.
func TestDecodeNoValue(t *testing.T) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{
			"pass":  cty.DynamicVal.Mark(NoValue{"pass"}),
			"nul":   cty.NullVal(cty.String).Mark(NoValue{"nul"}),
			"other": cty.StringVal("x"),
		}),
		"local": cty.ObjectVal(map[string]cty.Value{
			"p":        cty.DynamicVal.Mark(NoValue{"pass"}),
			"resource": cty.DynamicVal,
		}),
	}}
	const rest = `
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }
plan { method = method.aes_gcm.m }`
	cases := map[string]struct {
		reason     string
		passphrase string
		want       []diagKey
		wantDetail string
	}{
		"unset": {
			reason:     "at the reference",
			passphrase: "var.pass",
			want:       []diagKey{{"No value for required variable", 1, 42}},
			wantDetail: "var.pass, which has no value: set it with a -var or -var-file option, in a terraform.tfvars file, or with the TF_VAR_pass environment variable.",
		},
		"through a local": {
			reason:     "local.p = var.pass: the variable is named, at the argument",
			passphrase: "local.p",
			want:       []diagKey{{"No value for required variable", 1, 42}},
			wantDetail: "var.pass, which has no value",
		},
		"in a template": {
			passphrase: `"${var.other}-${var.pass}"`,
			want:       []diagKey{{"No value for required variable", 1, 58}},
			wantDetail: "var.pass, which has no value",
		},
		"null": {
			passphrase: "var.nul",
			want:       []diagKey{{"No value for required variable", 1, 42}},
			wantDetail: "var.nul, which is null: set it",
		},
		"undeclared variable": {
			reason:     "Terraform's message, not hcl's Unsupported attribute",
			passphrase: "var.nope",
			want:       []diagKey{{"Reference to undeclared input variable", 1, 42}},
			wantDetail: `An input variable with the name "nope" has not been declared. This variable can be declared with a variable "nope" {} block.`,
		},
		"undeclared local": {
			passphrase: "local.q",
			want:       []diagKey{{"Reference to undeclared local value", 1, 42}},
			wantDetail: `A local value with the name "q" has not been declared. Did you mean "p"?`,
		},
		"known only while planning": {
			reason:     "a local reading a resource has no variable to name",
			passphrase: "local.resource",
			want:       []diagKey{{`Invalid value for "passphrase"`, 1, 42}},
			wantDetail: "must be a string known before anything is planned",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := parseBlock(t, `key_provider "pbkdf2" "k" { passphrase = `+tc.passphrase+` }`+rest, "", ctx)
			if diff := cmp.Diff(tc.want, keysOf(diags)); diff != "" {
				t.Fatalf("%s: -want +got\n%s", tc.reason, diff)
			}
			if !strings.Contains(diags[0].Detail, tc.wantDetail) {
				t.Errorf("%s: detail %q does not contain %q", tc.reason, diags[0].Detail, tc.wantDetail)
			}
		})
	}
}

// TestDecodeUnencryptedWarning: as OpenTofu, each unencrypted method
// declared is a warning at the encryption block, used or not, from Decode
// and not from Validate.
func TestDecodeUnencryptedWarning(t *testing.T) {
	src := fastProvider("k", "a-long-enough-passphrase") + `method "unencrypted" "u" {}
method "unencrypted" "v" {}
state {
  method = method.aes_gcm.k
  fallback { method = method.unencrypted.u }
}`
	f, ds := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	block := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 3}}
	_, diags := Decode(f.Body, block, "", nil)
	want := []diagKey{{"Unencrypted method configured", 2, 3}, {"Unencrypted method configured", 2, 3}}
	if diff := cmp.Diff(want, keysOf(diags)); diff != "" {
		t.Errorf("Decode: -want +got\n%s", diff)
	}
	if got := diags[0].Detail; got != "Method unencrypted is present in configuration. This is a security risk and should only be enabled during migrations." {
		t.Errorf("detail = %q", got)
	}
	if diags := Validate(f.Body, block, "", nil); len(diags) > 0 {
		t.Errorf("Validate: %v", diags)
	}
}
