package statefile

import (
	"fmt"
	"slices"

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

// addrCache holds the addresses one decode has parsed, by their text. A
// state names few distinct addresses many times over: thousands of
// resources share a handful of provider configurations and module paths,
// and Terraform records dependencies transitively, so a chain of N
// resources holds N²/2 dependency entries naming only N resources. A
// cache belongs to one decode on one goroutine: nothing parsed outlives
// the file it came from, and it needs no lock. Only successful parses are
// kept; a bad address is parsed again to report it.
type addrCache struct {
	providers map[string]addrs.AbsProviderConfig
	modules   map[string]addrs.ModuleInstance
	deps      map[string]cachedDep
}

// cachedDep is a parsed dependency and whether its text is the one String
// gives (and so sorts as the address does).
type cachedDep struct {
	addr      addrs.AbsResource
	canonical bool
}

// newAddrCache returns an empty cache; its maps are made on first use, so
// decoding one journal record costs no maps it does not need.
func newAddrCache() *addrCache { return &addrCache{} }

// store sets m[k] = v, making m first if need be.
func store[V any](m *map[string]V, k string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[k] = v
}

func (c *addrCache) provider(s string) (addrs.AbsProviderConfig, error) {
	if pc, ok := c.providers[s]; ok {
		return pc, nil
	}
	pc, err := parseProviderConfig(s)
	if err == nil {
		store(&c.providers, s, pc)
	}
	return pc, err
}

// module returns the module instance s names. The resources that share it
// share its slice, clipped so that appending to it copies.
func (c *addrCache) module(s string) (addrs.ModuleInstance, error) {
	if m, ok := c.modules[s]; ok {
		return m, nil
	}
	m, err := parseModuleInstance(s)
	if err == nil {
		m = slices.Clip(m)
		store(&c.modules, s, m)
	}
	return m, err
}

func (c *addrCache) dep(s string) (cachedDep, error) {
	if d, ok := c.deps[s]; ok {
		return d, nil
	}
	r, err := parseAbsResource(s)
	if err != nil {
		return cachedDep{}, err
	}
	r.Module = slices.Clip(r.Module)
	d := cachedDep{addr: r, canonical: r.String() == s}
	store(&c.deps, s, d)
	return d, nil
}
