package providers

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// Factory starts a new instance of a provider.
type Factory func() (Interface, error)

// Registry finds the factory for a provider source address. The command
// layer fills it with the built-in providers (and, later, plugins); a
// Library is what the engine uses to start them.
type Registry map[addrs.Provider]Factory

// Factory returns the factory for addr, or an error diagnostic saying the
// provider is not available.
func (r Registry) Factory(addr addrs.Provider) (Factory, diags.Diagnostics) {
	if f, ok := r[addr]; ok {
		return f, nil
	}
	var known []string
	for a := range r {
		known = append(known, a.ForDisplay())
	}
	sort.Strings(known)
	return nil, diags.Diagnostics{diags.Errorf("Provider not available",
		"The provider %s is not available to Cairn. Available providers: %v.", addr.ForDisplay(), known)}
}
