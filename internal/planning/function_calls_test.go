package planning

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestCheckFunctionCalls pins which provider::NAME::FUNC calls a module
// may make and OpenTofu's errors for the others, located at the call,
// in a child module too.
func TestCheckFunctionCalls(t *testing.T) {
	const builtin = `terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}
`
	const random = `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
`
	tests := map[string]struct {
		files map[string]string
		want  []string // "SUMMARY at FILE:LINE:COL"
	}{
		"declared builtin": {files: map[string]string{"main.tf": builtin +
			`output "a" { value = provider::terraform::encode_expr(1) }`}},
		"core namespace": {files: map[string]string{"main.tf": `output "a" { value = core::upper("x") }`}},
		"undeclared": {files: map[string]string{"main.tf": `output "a" { value = provider::terraform::encode_expr(1) }`},
			want: []string{"Unknown function provider at main.tf:1:22"}},
		"unknown provider": {files: map[string]string{"main.tf": `output "a" { value = provider::foo::bar(1) }`},
			want: []string{"Unknown function provider at main.tf:1:22"}},
		"unknown builtin function": {files: map[string]string{"main.tf": builtin +
			`output "a" { value = provider::terraform::nope(1) }`},
			want: []string{"Function not found in provider at main.tf:6:22"}},
		"plugin provider function": {files: map[string]string{"main.tf": random +
			`output "a" { value = provider::random::f(1) }`}},
		"plugin provider function it lacks": {files: map[string]string{"main.tf": random +
			`output "a" { value = provider::random::g(1) }`},
			want: []string{"Function not found in provider at main.tf:6:22"}},
		"plugin provider function of an alias": {files: map[string]string{"main.tf": random +
			`output "a" { value = provider::random::other::f(1) }`},
			want: []string{"Unsupported provider function name at main.tf:6:22"}},
		"plugin provider under another local name": {files: map[string]string{"main.tf": `terraform {
  required_providers {
    rnd = { source = "hashicorp/random" }
  }
}
output "a" { value = provider::rnd::f(1) }`}},
		"child module declares nothing": {files: map[string]string{
			"main.tf":   builtin + `module "m" { source = "./m" }`,
			"m/main.tf": `output "a" { value = [provider::terraform::encode_expr(1)] }`},
			want: []string{"Unknown function provider at m/main.tf:1:23"}},
		"every call reported": {files: map[string]string{"main.tf": `locals {
  a = provider::x::f()
  b = provider::y::g()
}`},
			want: []string{"Unknown function provider at main.tf:2:7", "Unknown function provider at main.tf:3:7"}},
	}
	schemas := providers.Schemas{addrs.NewDefaultProvider("random"): &providers.GetProviderSchemaResponse{
		Functions: map[string]providers.Function{"f": {Return: cty.String}}}}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			files := map[string][]byte{}
			for n, s := range tc.files {
				files[n] = []byte(s)
			}
			cfg, ds := configs.LoadFiles(".", files)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			var got []string
			for _, d := range checkFunctionCalls(cfg, schemas) {
				got = append(got, fmt.Sprintf("%s at %s:%d:%d", d.Summary, d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
