package main

import "testing"

// TestPluginName: the binary serves the parameterized plugins under
// their names, and the built-in provider under any other.
func TestPluginName(t *testing.T) {
	cases := map[string]string{
		"/usr/local/bin/pulumi-resource-terraform":                                                      "terraform",
		"/home/u/.pulumi/plugins/resource-terraform-provider-v0.1.0/pulumi-resource-terraform-provider": "terraform-provider",
		"pulumi-resource-terraform-module":                                                              "terraform-module",
		"./cairn-plugin":                                                                                "terraform",
	}
	for argv0, want := range cases {
		if got := pluginName(argv0); got != want {
			t.Errorf("%s: got %s, want %s", argv0, got, want)
		}
	}
}
