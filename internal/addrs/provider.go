package addrs

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// DefaultProviderRegistryHost is the hostname assumed when a provider source
// address names none.
const DefaultProviderRegistryHost = "registry.terraform.io"

// BuiltInProviderHost is the pseudo-hostname of providers compiled into the
// engine, as Terraform spells it.
const BuiltInProviderHost = "terraform.io"

// BuiltInProviderNamespace is the namespace of built-in providers.
const BuiltInProviderNamespace = "builtin"

// Provider is a provider's source address: hostname/namespace/type.
type Provider struct {
	Hostname  string
	Namespace string
	Type      string
}

// NewDefaultProvider returns the registry.terraform.io/hashicorp/<type>
// address Terraform assumes for a provider with no required_providers entry.
func NewDefaultProvider(typeName string) Provider {
	return Provider{Hostname: DefaultProviderRegistryHost, Namespace: "hashicorp", Type: typeName}
}

// NewBuiltInProvider returns terraform.io/builtin/<type>.
func NewBuiltInProvider(typeName string) Provider {
	return Provider{Hostname: BuiltInProviderHost, Namespace: BuiltInProviderNamespace, Type: typeName}
}

// String returns the fully qualified source address.
func (p Provider) String() string {
	return p.Hostname + "/" + p.Namespace + "/" + p.Type
}

// ForDisplay returns the address without the default registry hostname,
// as Terraform shows it to people ("hashicorp/aws").
func (p Provider) ForDisplay() string {
	if p.Hostname == DefaultProviderRegistryHost {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// IsBuiltIn reports whether the provider is compiled into the engine.
func (p Provider) IsBuiltIn() bool {
	return p.Hostname == BuiltInProviderHost && p.Namespace == BuiltInProviderNamespace
}

// IsZero reports whether p is the zero value.
func (p Provider) IsZero() bool { return p == Provider{} }

// SortedProviders returns the distinct providers of the given lists in
// address order (by String, the order lock files and Terraform list them
// in). Configuration, state and plan each say which providers they need;
// a run that needs several of them joins their lists with it.
func SortedProviders(lists ...[]Provider) []Provider {
	set := map[Provider]struct{}{}
	for _, list := range lists {
		for _, p := range list {
			set[p] = struct{}{}
		}
	}
	return slices.SortedFunc(maps.Keys(set), func(a, b Provider) int {
		return strings.Compare(a.String(), b.String())
	})
}

// ParseProviderSource parses a required_providers source string:
// "TYPE", "NAMESPACE/TYPE" or "HOST/NAMESPACE/TYPE". Names are compared
// case-insensitively, so they are normalized to lower case.
func ParseProviderSource(s string) (Provider, error) {
	parts := strings.Split(s, "/")
	for i, p := range parts {
		if p == "" {
			return Provider{}, fmt.Errorf("invalid provider source %q: empty part", s)
		}
		if len(parts) == 3 && i == 0 {
			host, ok := validHost(p)
			if !ok {
				return Provider{}, fmt.Errorf("invalid provider source %q: part %q is not a host name, with an optional port", s, p)
			}
			parts[0] = host
			continue
		}
		if !validName(p, true) {
			return Provider{}, fmt.Errorf("invalid provider source %q: part %q may contain only letters, digits, dashes, dots and underscores", s, p)
		}
	}
	switch len(parts) {
	case 1:
		return NewDefaultProvider(strings.ToLower(parts[0])), nil
	case 2:
		return Provider{Hostname: DefaultProviderRegistryHost, Namespace: strings.ToLower(parts[0]), Type: strings.ToLower(parts[1])}, nil
	case 3:
		return Provider{Hostname: strings.ToLower(parts[0]), Namespace: strings.ToLower(parts[1]), Type: strings.ToLower(parts[2])}, nil
	default:
		return Provider{}, fmt.Errorf("invalid provider source %q: expected at most three parts HOST/NAMESPACE/TYPE", s)
	}
}

// validHost checks a source's host part: a name, optionally ":PORT" as
// Terraform's host names allow (a registry on another port). The
// default port 443 is dropped, as Terraform normalizes it away.
func validHost(h string) (string, bool) {
	name, port, hasPort := strings.Cut(h, ":")
	if !validName(name, true) {
		return "", false
	}
	if !hasPort {
		return h, true
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return "", false
	}
	if n == 443 {
		return name, true
	}
	return h, true
}

// AbsProviderConfig is one provider configuration in a module: the provider
// and an optional alias. Its string form is the one state files use:
// provider["registry.terraform.io/hashicorp/aws"].west, or
// module.a.provider["..."] in a child module. Provider configurations belong
// to a static module, not to a module instance: a module called with count
// or for_each shares its provider configurations across its instances, as
// in Terraform.
//
// Key selects one instance of a provider configuration that has for_each
// (OpenTofu 1.9): provider["..."].by_region["us"]. NoKey is the
// configuration itself, or its only instance when it has no for_each.
type AbsProviderConfig struct {
	Module   Module
	Provider Provider
	Alias    string
	Key      InstanceKey
}

// Instance returns the address of the configuration's instance key.
func (p AbsProviderConfig) Instance(key InstanceKey) AbsProviderConfig {
	p.Key = key
	return p
}

// Config returns the address without its instance key: the provider
// configuration the instance belongs to.
func (p AbsProviderConfig) Config() AbsProviderConfig {
	p.Key = NoKey
	return p
}

// String returns the state-file form of the provider configuration address.
func (p AbsProviderConfig) String() string {
	var b strings.Builder
	if !p.Module.IsRoot() {
		b.WriteString(p.Module.String())
		b.WriteByte('.')
	}
	b.WriteString(`provider["`)
	b.WriteString(p.Provider.String())
	b.WriteString(`"]`)
	if p.Alias != "" {
		b.WriteByte('.')
		b.WriteString(p.Alias)
	}
	if p.Key != NoKey {
		b.WriteString(p.Key.String())
	}
	return b.String()
}

// Equal reports whether two addresses are the same.
func (p AbsProviderConfig) Equal(o AbsProviderConfig) bool {
	return p.Provider == o.Provider && p.Alias == o.Alias && p.Key == o.Key && p.Module.Equal(o.Module)
}

// UniqueKey implements UniqueKeyer.
func (p AbsProviderConfig) UniqueKey() UniqueKey {
	return providerConfigKey{module: p.Module.String(), provider: p.Provider, alias: p.Alias, key: p.Key}
}

// ParseAbsProviderConfig parses the state-file form written by String,
// with an optional module path (module.a.module.b.provider["..."]) and an
// optional instance key after the alias (.by_region["us"]).
// Module instance keys are refused: a provider configuration belongs to a
// static module.
func ParseAbsProviderConfig(s string) (AbsProviderConfig, hcl.Diagnostics) {
	const prefix = `provider["`
	i := strings.Index(s, prefix)
	if i < 0 {
		return AbsProviderConfig{}, invalidProviderConfig(s, `it must contain provider["HOST/NAMESPACE/TYPE"]`)
	}
	var mod Module
	if i > 0 {
		if s[i-1] != '.' {
			return AbsProviderConfig{}, invalidProviderConfig(s, "a module path must be followed by a dot")
		}
		mi, err := ParseModuleInstanceStr(s[:i-1])
		switch {
		case err != nil:
			return AbsProviderConfig{}, invalidProviderConfig(s, err.Error())
		case mi.IsRoot():
			return AbsProviderConfig{}, invalidProviderConfig(s, "empty module path")
		}
		for _, step := range mi {
			if step.Key != NoKey {
				return AbsProviderConfig{}, invalidProviderConfig(s, "a provider configuration belongs to a module, not to one of its instances")
			}
		}
		mod = mi.Module()
	}
	rest := s[i+len(prefix):]
	end := strings.Index(rest, `"]`)
	if end < 0 {
		return AbsProviderConfig{}, invalidProviderConfig(s, `missing closing "]`)
	}
	prov, err := ParseProviderSource(rest[:end])
	if err != nil {
		return AbsProviderConfig{}, invalidProviderConfig(s, err.Error())
	}
	rest = rest[end+2:]
	var alias string
	var key InstanceKey = NoKey
	if k := strings.IndexByte(rest, '['); k >= 0 {
		var err error
		if key, err = parseKeySuffix(rest[k:]); err != nil {
			return AbsProviderConfig{}, invalidProviderConfig(s, err.Error())
		}
		rest = rest[:k]
	}
	if rest != "" {
		if rest[0] != '.' || !validName(rest[1:], false) {
			return AbsProviderConfig{}, invalidProviderConfig(s, "an alias must follow a dot and be a valid name")
		}
		alias = rest[1:]
	}
	if key != NoKey && alias == "" {
		return AbsProviderConfig{}, invalidProviderConfig(s, "only a configuration with an alias has instance keys")
	}
	return AbsProviderConfig{Module: mod, Provider: prov, Alias: alias, Key: key}, nil
}

// parseKeySuffix parses one instance key in brackets, ["us"] or [0], and
// nothing after it.
func parseKeySuffix(s string) (InstanceKey, error) {
	t, ds := parseTraversal("k" + s)
	if ds.HasErrors() || len(t) != 2 {
		return NoKey, fmt.Errorf("an instance key must be one index in brackets")
	}
	idx, ok := t[1].(hcl.TraverseIndex)
	if !ok {
		return NoKey, fmt.Errorf("an instance key must be one index in brackets")
	}
	return ParseInstanceKey(idx.Key)
}

func invalidProviderConfig(s, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider configuration address",
		Detail:   fmt.Sprintf("The address %q is not a provider configuration address: %s.", s, why),
	}}
}

// validName reports whether s is a valid identifier; dots are allowed in
// provider source parts (hostnames).
func validName(s string, allowDot bool) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		case c == '.' && allowDot:
		default:
			return false
		}
	}
	return true
}
