package getproviders

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// Pattern matches provider addresses in include and exclude lists:
// HOST/NAMESPACE/TYPE where any part may be "*"; a pattern without a
// hostname means registry.terraform.io, as a source address does.
type Pattern struct {
	Hostname, Namespace, Type string
}

// ParsePattern parses an include/exclude entry; the error is for the user.
func ParsePattern(s string) (Pattern, error) {
	parts := strings.Split(strings.ToLower(s), "/")
	for _, p := range parts {
		if p == "" {
			return Pattern{}, fmt.Errorf("invalid provider pattern %q: empty part", s)
		}
	}
	switch len(parts) {
	case 1:
		return Pattern{addrs.DefaultProviderRegistryHost, "hashicorp", parts[0]}, nil
	case 2:
		return Pattern{addrs.DefaultProviderRegistryHost, parts[0], parts[1]}, nil
	case 3:
		if parts[1] == "*" && parts[2] != "*" {
			return Pattern{}, fmt.Errorf("invalid provider pattern %q: a wildcard namespace needs a wildcard type", s)
		}
		return Pattern{parts[0], parts[1], parts[2]}, nil
	default:
		return Pattern{}, fmt.Errorf("invalid provider pattern %q: expected HOST/NAMESPACE/TYPE", s)
	}
}

// Matches reports whether p fits the pattern.
func (pat Pattern) Matches(p addrs.Provider) bool {
	part := func(want, got string) bool { return want == "*" || want == got }
	return part(pat.Hostname, p.Hostname) && part(pat.Namespace, p.Namespace) && part(pat.Type, p.Type)
}

// String returns HOST/NAMESPACE/TYPE.
func (pat Pattern) String() string {
	return pat.Hostname + "/" + pat.Namespace + "/" + pat.Type
}
