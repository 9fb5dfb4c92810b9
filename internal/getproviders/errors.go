package getproviders

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// NotFoundError says no method offered any package of a provider for the
// platform. Places lists every place consulted, in order, so the user can
// see where to put the package.
type NotFoundError struct {
	Provider addrs.Provider
	Places   []string
}

func (e *NotFoundError) Error() string {
	if len(e.Places) == 0 {
		return fmt.Sprintf("provider %s was not found: no installation method applies to it", e.Provider)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "provider %s was not found in any of the search locations\n", e.Provider)
	for _, p := range e.Places {
		fmt.Fprintf(&b, "\n  - %s", p)
	}
	return b.String()
}

// HashMismatchError says an installed package matches none of the hashes
// the lock file recorded for it: the package changed since it was locked.
// The message is Terraform's; Hash is there for logs and tests.
type HashMismatchError struct {
	Package Package
	Hash    string
}

func (e *HashMismatchError) Error() string {
	return fmt.Sprintf("the local package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://www.terraform.io/language/provider-checksum-verification",
		e.Package.Provider.ForDisplay(), e.Package.Version)
}
