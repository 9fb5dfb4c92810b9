package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinariesLinkOnlyWhatTheyServe holds each binary built from cmd/ to
// the packages it may link (go list -deps). Every package linked runs its
// initialisation at every start, and the plugins are launched once per
// provider configuration, so what a binary does not serve must not be in
// it: the plugin binaries import no command line, no Kubernetes,
// Crossplane or PostgreSQL packages, and the Terraform plugin no Pulumi
// SDK. No binary links the terminal UI library some Pulumi SDK packages
// bring, whose init queries the terminal (TestVersionOnSilentTerminal
// shows what that costs).
func TestBinariesLinkOnlyWhatTheyServe(t *testing.T) {
	everywhere := []string{
		"github.com/charmbracelet/bubbletea",
		"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil",
	}
	plugins := append([]string{
		"github.com/cairn-iac/cairn/internal/command",
		"github.com/cairn-iac/cairn/internal/crds",
		"github.com/cairn-iac/cairn/internal/reconciler",
		"k8s.io/",
		"sigs.k8s.io/",
		"github.com/crossplane/",
		"github.com/jackc/pgx",
		"github.com/cairn-iac/cairn/internal/graphsvg",
		"github.com/goccy/go-graphviz",
		"github.com/tetratelabs/wazero",
	}, everywhere...)
	cases := map[string]struct {
		reason    string
		forbidden []string
	}{
		"cairn": {
			reason:    "The CLI serves Pulumi too, without the SDK's command-line helpers.",
			forbidden: everywhere,
		},
		"terraform-provider-awscc": {
			reason:    "The Terraform plugin serves awscc over protocol 6 and nothing else.",
			forbidden: append([]string{"github.com/pulumi/"}, plugins...),
		},
		"pulumi-resource-awscc": {
			reason:    "The Pulumi plugin serves awscc through the Pulumi adapter and nothing else.",
			forbidden: plugins,
		},
		"pulumi-resource-terraform": {
			reason:    "The Pulumi plugin serves terraform_data through the Pulumi adapter and nothing else.",
			forbidden: plugins,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", "../"+name).Output()
			if err != nil {
				t.Fatalf("go list -deps ../%s: %v", name, err)
			}
			for _, pkg := range strings.Fields(string(out)) {
				for _, f := range tc.forbidden {
					if pkg == f || strings.HasPrefix(pkg, f) && (strings.HasSuffix(f, "/") || strings.HasPrefix(pkg, f+"/")) {
						t.Errorf("%s\n%s links %s", tc.reason, name, pkg)
					}
				}
			}
		})
	}
}
