package configs

import "github.com/hashicorp/hcl/v2"

// DecodeProviderBlock decodes a provider block found outside a module,
// as test files (*.tftest.hcl) have them, with a module's rules. The
// caller resolves Source against the module the configuration is for
// (its required_providers entry for Name, or the default for Name).
func DecodeProviderBlock(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	return decodeProviderBlock(block)
}
