package depsfile

import (
	"slices"
	"sort"

	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// ProviderLock is the recorded selection for one provider.
type ProviderLock struct {
	Provider    addrs.Provider
	Version     *version.Version
	Constraints getproviders.Constraints
	// Hashes holds "h1:" and "zh:" strings, sorted and without duplicates.
	Hashes []string
}

// Locks is the content of a lock file. The zero value is not usable; use
// NewLocks.
type Locks struct {
	providers map[addrs.Provider]*ProviderLock
}

// NewLocks returns an empty set of locks, the content of a missing file.
func NewLocks() *Locks {
	return &Locks{providers: map[addrs.Provider]*ProviderLock{}}
}

// Provider returns the lock for p, or nil when none is recorded.
func (l *Locks) Provider(p addrs.Provider) *ProviderLock {
	return l.providers[p]
}

// SetProvider records a selection, replacing any earlier one for the same
// provider. Hashes are copied, sorted and deduplicated.
func (l *Locks) SetProvider(p addrs.Provider, v *version.Version, cs getproviders.Constraints, hashes []string) *ProviderLock {
	hs := slices.Clone(hashes)
	sort.Strings(hs)
	lock := &ProviderLock{Provider: p, Version: v, Constraints: cs, Hashes: slices.Compact(hs)}
	l.providers[p] = lock
	return lock
}

// RemoveProvider forgets the selection for p (a provider no longer
// required).
func (l *Locks) RemoveProvider(p addrs.Provider) {
	delete(l.providers, p)
}

// Providers returns the locks sorted by provider address.
func (l *Locks) Providers() []*ProviderLock {
	out := make([]*ProviderLock, 0, len(l.providers))
	for _, p := range l.providers {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider.String() < out[j].Provider.String() })
	return out
}

// Accepts reports whether a package whose hash (in the same scheme) is h
// matches the record. A lock without hashes accepts nothing, so an
// installer must compute and record them first.
func (pl *ProviderLock) Accepts(h string) bool {
	return slices.Contains(pl.Hashes, h)
}
