package plugins

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/plugin"
	"github.com/cairn-iac/cairn/internal/pulumi/schema"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

// TerraformPlugin serves an existing Terraform provider plugin (protocol
// 5 or 6, such as hashicorp/random) to Pulumi: the binary at path runs as
// a plugin process of this one. source is the provider's address
// (hashicorp/random); empty takes the name from the binary's file name,
// terraform-provider-NAME[_vVERSION]. It returns the provider's name,
// the Pulumi package name and prefix of its types.
func TerraformPlugin(path, source string) (string, server.Loader, error) {
	if source == "" {
		base := strings.TrimPrefix(filepath.Base(path), "terraform-provider-")
		if base == filepath.Base(path) {
			return "", nil, fmt.Errorf("%s is not named terraform-provider-NAME: give the provider's source address", path)
		}
		source, _, _ = strings.Cut(base, "_")
	}
	addr, err := addrs.ParseProviderSource(source)
	if err != nil {
		return "", nil, fmt.Errorf("provider source %q: %w", source, err)
	}
	return addr.Type, pluginLoader(path, addr), nil
}

// pluginLoader serves the provider plugin binary at path, provider addr.
func pluginLoader(path string, addr addrs.Provider) server.Loader {
	return func() (*server.Provider, error) {
		return &server.Provider{
			Addr: addr,
			Factory: func() (providers.Interface, error) {
				return plugin.Launch(context.Background(), path, plugin.Options{Name: addr.String()})
			},
			Package: schema.Input{Description: "The Terraform provider " + addr.String() + " served by Cairn."},
		}, nil
	}
}
