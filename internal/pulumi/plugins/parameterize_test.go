package plugins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/pulumi/schema"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
	"github.com/cairn-iac/cairn/internal/testproviders"
)

// randomMirror lays the built hashicorp/random plugin out in a filesystem
// mirror named by a CLI configuration file, as a user's would be, and
// returns the environment that points at it.
func randomMirror(t testing.TB) func(string) string {
	t.Helper()
	bin, ok := testproviders.Binary("random")
	if !ok {
		t.Skip("test providers not built (scripts/build-test-providers.sh)")
	}
	dir := t.TempDir()
	pkg := filepath.Join(dir, "mirror", "registry.terraform.io", "hashicorp", "random", "3.9.0", "linux_amd64")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(pkg, "terraform-provider-random")); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(dir, "cli.tfrc")
	text := `provider_installation {
  filesystem_mirror {
    path = "` + filepath.Join(dir, "mirror") + `"
  }
}
`
	if err := os.WriteFile(rc, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TF_CLI_CONFIG_FILE": rc, "HOME": dir, "CAIRN_PLUGIN_CACHE": "off"}
	return func(k string) string { return env[k] }
}

func providerServer(t *testing.T, getenv func(string) string) *server.Server {
	t.Helper()
	s := server.New(server.Info{
		Name: ProviderPlugin, Version: Version,
		Parameterize: providerParams{find: providerFinder{getenv: getenv, cwd: t.TempDir()}},
	}, unparameterized(ProviderPlugin, "hashicorp/random"), nil)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func byArgs(args ...string) *pulumirpc.ParameterizeRequest {
	return &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Args{
		Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: args}}}
}

func byValue(name, version, value string) *pulumirpc.ParameterizeRequest {
	return &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: name, Version: version, Value: []byte(value)}}}
}

const randomValue = `{"source":"registry.terraform.io/hashicorp/random","version":"3.9.0"}`

// TestParameterizeProvider: terraform-provider becomes package random at
// the version found, by arguments or by the value its schema carried;
// parameters that name nothing installed, or are not its own, are errors
// saying so.
func TestParameterizeProvider(t *testing.T) {
	getenv := randomMirror(t)
	cases := []struct {
		what string
		req  *pulumirpc.ParameterizeRequest
		err  string
	}{
		{"source only: the newest version", byArgs("hashicorp/random"), ""},
		{"source and version", byArgs("hashicorp/random", "3.9.0"), ""},
		{"a constraint", byArgs("registry.terraform.io/hashicorp/random", "~> 3.0"), ""},
		{"by value", byValue("random", "3.9.0", randomValue), ""},
		{"version not installed", byArgs("hashicorp/random", "9.9.9"), "no available releases match the given constraints 9.9.9"},
		{"bad version", byArgs("hashicorp/random", "three"), `version "three" of hashicorp/random`},
		{"unknown provider", byArgs("hashicorp/nosuch"), "registry.terraform.io/hashicorp/nosuch was not found"},
		{"bad source", byArgs("a/b/c/d"), `provider source "a/b/c/d"`},
		{"no arguments", byArgs(), "takes a provider source address and an optional version"},
		{"too many arguments", byArgs("hashicorp/random", "3.9.0", "x"), "not 3 arguments"},
		{"malformed value", byValue("random", "3.9.0", `{"source":`), "is not a terraform-provider parameter"},
		{"another plugin's value", byValue("netmod", "0.0.1", `{"source":"./net","name":"netmod"}`), "is not a terraform-provider parameter"},
		{"value for another version", byValue("random", "3.8.0", randomValue), "the parameter names random 3.9.0, but the package is random 3.8.0"},
		{"value naming a missing version", byValue("random", "3.1.0", `{"source":"hashicorp/random","version":"3.1.0"}`), "no available releases"},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			s := providerServer(t, getenv)
			resp, err := s.Parameterize(context.Background(), c.req)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want an error containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetName() != "random" || resp.GetVersion() != "3.9.0" {
				t.Fatalf("got %s %s, want random 3.9.0", resp.GetName(), resp.GetVersion())
			}
		})
	}
}

// TestParameterizedProviderSchema: after Parameterize the schema is the
// provider's under its own name and version, and says how to make it
// again: the base plugin and the parameter, which replays by value.
func TestParameterizedProviderSchema(t *testing.T) {
	s := providerServer(t, randomMirror(t))
	ctx := context.Background()
	if _, err := s.Parameterize(ctx, byArgs("hashicorp/random")); err != nil {
		t.Fatal(err)
	}
	resp, err := s.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var pkg schema.Package
	if err := json.Unmarshal([]byte(resp.GetSchema()), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "random" || pkg.Version != "3.9.0" {
		t.Errorf("package %s %s, want random 3.9.0", pkg.Name, pkg.Version)
	}
	if _, ok := pkg.Resources["random:index/pet:Pet"]; !ok {
		t.Errorf("no random:index/pet:Pet among %d resources", len(pkg.Resources))
	}
	p := pkg.Parameterization
	if p == nil || p.BaseProvider.Name != ProviderPlugin || p.BaseProvider.Version != Version || string(p.Parameter) != randomValue {
		t.Fatalf("parameterization %+v, want base %s %s and parameter %s", p, ProviderPlugin, Version, randomValue)
	}

	// The engine may name the package it expects; another is refused.
	if _, err := s.GetSchema(ctx, &pulumirpc.GetSchemaRequest{SubpackageName: "random", SubpackageVersion: "3.9.0"}); err != nil {
		t.Errorf("schema of random 3.9.0 by name: %v", err)
	}
	if _, err := s.GetSchema(ctx, &pulumirpc.GetSchemaRequest{SubpackageName: "random", SubpackageVersion: "3.8.0"}); err == nil {
		t.Error("schema of random 3.8.0: no error")
	}

	// The same package again is answered again; another is refused: a
	// plugin process serves one package.
	if _, err := s.Parameterize(ctx, byValue("random", "3.9.0", string(p.Parameter))); err != nil {
		t.Errorf("same package again: %v", err)
	}
	if _, err := s.Parameterize(ctx, byArgs("hashicorp/random", "= 3.9.0")); err != nil {
		t.Errorf("same package by arguments: %v", err)
	}
	other := byValue("other", "1.0.0", `{"source":"x","name":"other"}`)
	if _, err := s.Parameterize(ctx, other); err == nil {
		t.Error("another package's parameters: no error")
	}
}

// TestUnparameterized: terraform-provider with no parameters has nothing
// to serve and says how to give them; the built-in terraform plugin
// takes none.
func TestUnparameterized(t *testing.T) {
	ctx := context.Background()
	s := providerServer(t, func(string) string { return "" })
	_, err := s.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err == nil || !strings.Contains(err.Error(), "pulumi package add terraform-provider hashicorp/random") {
		t.Errorf("schema of the unparameterized plugin: got %v", err)
	}
	if _, err := s.Parameterize(ctx, byArgs("hashicorp/random")); err == nil || !strings.Contains(err.Error(), "already serving") {
		t.Errorf("parameterized after serving: got %v", err)
	}

	tf := server.New(server.Info{Name: "terraform", Version: Version}, Terraform(t.TempDir()), nil)
	defer tf.Close()
	if _, err := tf.Parameterize(ctx, byArgs("hashicorp/random")); err == nil || !strings.Contains(err.Error(), "takes no parameters") {
		t.Errorf("terraform plugin: got %v", err)
	}
}
