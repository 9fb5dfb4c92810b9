package configs

import "testing"

// TestResolveProviderConfig pins which provider configuration a resource
// in a module uses, as Terraform 1.5.7 resolves them (checked against its
// state files).
func TestResolveProviderConfig(t *testing.T) {
	child := "resource \"terraform_data\" \"a\" {\n  provider = terraform.x\n}\nresource \"terraform_data\" \"b\" {}\n"
	tests := map[string]struct {
		files map[string]string
		want  map[string]string // resource in module -> provider config
	}{
		"passed alias; default inherited although providers is set": {
			files: map[string]string{
				"main.tf":   "provider \"terraform\" {\n  alias = \"one\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  providers = { terraform.x = terraform.one }\n}\n",
				"m/main.tf": child,
			},
			want: map[string]string{
				"module.m.terraform_data.a": `provider["terraform.io/builtin/terraform"].one`,
				"module.m.terraform_data.b": `provider["terraform.io/builtin/terraform"]`,
			},
		},
		"default passed explicitly": {
			files: map[string]string{
				"main.tf":   "provider \"terraform\" {\n  alias = \"one\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  providers = { terraform.x = terraform.one, terraform = terraform.one }\n}\n",
				"m/main.tf": child,
			},
			want: map[string]string{
				"module.m.terraform_data.a": `provider["terraform.io/builtin/terraform"].one`,
				"module.m.terraform_data.b": `provider["terraform.io/builtin/terraform"].one`,
			},
		},
		"block in the child module": {
			files: map[string]string{
				"main.tf":   "module \"m\" {\n  source = \"./m\"\n}\n",
				"m/main.tf": "provider \"terraform\" {\n  alias = \"x\"\n}\n" + child,
			},
			want: map[string]string{
				"module.m.terraform_data.a": `module.m.provider["terraform.io/builtin/terraform"].x`,
				"module.m.terraform_data.b": `provider["terraform.io/builtin/terraform"]`,
			},
		},
		"inherited through two levels": {
			files: map[string]string{
				"main.tf":   "provider \"terraform\" {\n  alias = \"one\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  providers = { terraform = terraform.one }\n}\n",
				"m/main.tf": "module \"n\" {\n  source = \"./n\"\n}\n",
				"m/n/x.tf":  "resource \"terraform_data\" \"b\" {}\n",
			},
			want: map[string]string{
				"module.m.module.n.terraform_data.b": `provider["terraform.io/builtin/terraform"].one`,
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			root := mustLoad(t, tc.files)
			got := map[string]string{}
			root.Walk(func(m *Module) {
				for _, r := range m.ManagedResources {
					got[r.Addr().InModule(m.Path).String()] = r.ProviderConfigAddr().String()
				}
			})
			for addr, want := range tc.want {
				if got[addr] != want {
					t.Errorf("%s uses %s, want %s", addr, got[addr], want)
				}
			}
		})
	}
}
