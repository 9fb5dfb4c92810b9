package statefile

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// The address forms a state file uses are parsed by addrs; these wrappers
// turn its diagnostics into the errors the decoder reports.

// parseModuleInstance parses a resource's module path, such as
// module.a["x"].module.b. The empty string is the root module.
func parseModuleInstance(s string) (addrs.ModuleInstance, error) {
	return addrs.ParseModuleInstanceStr(s)
}

// parseAbsResource parses a resource address as dependencies record it, such
// as module.a.terraform_data.b or data.x.y. Instance keys are not allowed.
func parseAbsResource(s string) (addrs.AbsResource, error) {
	r, ds := addrs.ParseAbsResourceStr(s)
	if ds.HasErrors() {
		return addrs.AbsResource{}, fmt.Errorf("invalid resource address %q: %s", s, ds[0].Detail)
	}
	return r, nil
}

// parseProviderConfig parses a provider configuration address, optionally in
// a child module: module.a.provider["registry.terraform.io/hashicorp/aws"].west
func parseProviderConfig(s string) (addrs.AbsProviderConfig, error) {
	pc, ds := addrs.ParseAbsProviderConfig(s)
	if ds.HasErrors() {
		return addrs.AbsProviderConfig{}, fmt.Errorf("invalid provider address %q: %s", s, ds[0].Detail)
	}
	return pc, nil
}
