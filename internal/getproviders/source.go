package getproviders

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// MethodKind says where a method would find packages.
type MethodKind int

const (
	// FilesystemMirror is a local directory in Terraform's layouts.
	FilesystemMirror MethodKind = iota
	// Direct is the provider's origin registry. Cairn never downloads, so
	// a direct method is recorded but contributes no packages.
	Direct
	// NetworkMirror is an HTTPS mirror; recorded, never contacted.
	NetworkMirror
)

// Method is one installation method with the providers it applies to.
// Empty Include means every provider; Exclude wins over Include.
type Method struct {
	Kind    MethodKind
	Dir     Dir    // FilesystemMirror only
	URL     string // NetworkMirror only
	Include []Pattern
	Exclude []Pattern
}

// Applies reports whether the method is consulted for p.
func (m Method) Applies(p addrs.Provider) bool {
	matches := func(pats []Pattern) bool {
		return slices.ContainsFunc(pats, func(pat Pattern) bool { return pat.Matches(p) })
	}
	return (len(m.Include) == 0 || matches(m.Include)) && !matches(m.Exclude)
}

// place names the method in "not found" messages.
func (m Method) place(p addrs.Provider, contacted bool) string {
	switch {
	case contacted && m.Kind == Direct:
		return "provider registry " + p.Hostname
	case contacted && m.Kind == NetworkMirror:
		return "network mirror " + m.URL
	}
	switch m.Kind {
	case Direct:
		return "the origin registry (not contacted: Cairn installs only from local directories)"
	case NetworkMirror:
		return "network mirror " + m.URL + " (not contacted: Cairn installs only from local directories)"
	default:
		return string(m.Dir)
	}
}

// Source searches methods in order for one platform's packages, as
// Terraform combines its installation methods: the versions offered are
// the union over every method that applies, and a version offered by
// several comes from the first of them.
type Source struct {
	Methods  []Method
	Platform Platform
	// HTTP contacts direct and network_mirror methods; nil leaves them
	// uncontacted (named in "not found" messages only).
	HTTP *HTTP
}

// Available returns the provider's packages for the source's platform,
// one per version, sorted newest first. A directory that cannot be read
// is an error; a provider no method offers is a *NotFoundError listing
// every place looked.
func (s Source) Available(p addrs.Provider) ([]Package, error) {
	return s.AvailableContext(context.Background(), p)
}

// AvailableContext is Available with the lifetime of its requests bound
// to ctx, so that init can cancel the other queries when one fails.
func (s Source) AvailableContext(ctx context.Context, p addrs.Provider) ([]Package, error) {
	byVersion := map[string]Package{}
	var places []string
	for _, m := range s.Methods {
		if !m.Applies(p) {
			continue
		}
		places = append(places, m.place(p, s.HTTP != nil))
		pkgs, err := s.methodPackages(ctx, m, p)
		if err != nil {
			return nil, err
		}
		for _, pkg := range pkgs {
			if _, seen := byVersion[pkg.Version.String()]; !seen && pkg.Platform == s.Platform {
				byVersion[pkg.Version.String()] = pkg
			}
		}
	}
	if len(byVersion) == 0 {
		return nil, &NotFoundError{Provider: p, Places: places}
	}
	out := make([]Package, 0, len(byVersion))
	for _, pkg := range byVersion {
		out = append(out, pkg)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version.GreaterThan(out[j].Version) })
	return out, nil
}

// Select picks the package to install: the locked version when there is
// one and upgrade is false (it must still meet the constraints), else the
// newest version meeting every constraint. Errors are for the user.
func Select(p addrs.Provider, available []Package, cs Constraints, locked *version.Version, upgrade bool) (Package, error) {
	if locked != nil && !upgrade {
		if !cs.Allows(locked) {
			return Package{}, fmt.Errorf("locked provider %s %s does not match configured version constraint %s; must use cairn init -upgrade to allow selection of new versions", p, locked, cs)
		}
		for _, pkg := range available {
			if pkg.Version.Equal(locked) {
				return pkg, nil
			}
		}
		return Package{}, fmt.Errorf("the previously-selected version %s is no longer available", locked)
	}
	for _, pkg := range available { // newest first
		if cs.Allows(pkg.Version) {
			return pkg, nil
		}
	}
	vs := make([]string, len(available))
	for i, pkg := range available {
		vs[i] = pkg.Version.String()
	}
	return Package{}, fmt.Errorf("no available releases match the given constraints %s (available versions: %s)", cs, strings.Join(vs, ", "))
}

// methodPackages lists what one method offers: a directory's packages, or
// with HTTP set a registry's or network mirror's releases.
func (s Source) methodPackages(ctx context.Context, m Method, p addrs.Provider) ([]Package, error) {
	switch {
	case m.Kind == FilesystemMirror:
		return m.Dir.Packages(p)
	case s.HTTP == nil:
		return nil, nil
	case m.Kind == Direct:
		return s.HTTP.registryPackages(ctx, p, s.Platform)
	default:
		return s.HTTP.mirrorPackages(ctx, m.URL, p, s.Platform)
	}
}
