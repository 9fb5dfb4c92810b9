package cliconfig

import "testing"

func TestToken(t *testing.T) {
	cfg := &Config{Credentials: map[string]string{"app.terraform.io": "from-block", "127.0.0.1:8443": "port-block"}}
	tests := map[string]struct {
		reason string
		host   string
		vars   map[string]string
		want   string
	}{
		"block":      {reason: "a credentials block", host: "app.terraform.io", want: "from-block"},
		"env first":  {reason: "TF_TOKEN_ names the host with dots as underscores and wins", host: "App.Terraform.io", vars: map[string]string{"TF_TOKEN_app_terraform_io": "from-env"}, want: "from-env"},
		"dashes":     {reason: "a dash is a double underscore", host: "my-reg.example.com", vars: map[string]string{"TF_TOKEN_my__reg_example_com": "dash"}, want: "dash"},
		"port":       {reason: "a host with a port has only its block", host: "127.0.0.1:8443", want: "port-block"},
		"none":       {reason: "no token", host: "registry.terraform.io", want: ""},
		"other host": {reason: "another host's variable is not used", host: "registry.terraform.io", vars: map[string]string{"TF_TOKEN_app_terraform_io": "x"}, want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := cfg.Token(envOf(t.TempDir(), tc.vars), tc.host); got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
}
