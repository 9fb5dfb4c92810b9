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

// HashStage says when a hash check failed; Terraform words each case
// differently.
type HashStage int

const (
	// FromDir is installing an unpacked package from a mirror.
	FromDir HashStage = iota
	// FromArchive is installing a zip-packed package.
	FromArchive
	// AlreadyInstalled is a later command checking .terraform/providers.
	AlreadyInstalled
)

// HashMismatchError says a package matches none of the hashes the lock
// file recorded for it: it changed since it was locked. The messages are
// Terraform's; Hash is there for logs and tests.
type HashMismatchError struct {
	Package Package
	Hash    string
	Stage   HashStage
	// InstallDir is the .terraform/providers directory, for
	// AlreadyInstalled.
	InstallDir string
}

func (e *HashMismatchError) Error() string {
	p, v := e.Package.Provider, e.Package.Version
	switch e.Stage {
	case FromArchive:
		return fmt.Sprintf("the current package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://www.terraform.io/language/provider-checksum-verification", p, v)
	case AlreadyInstalled:
		return fmt.Sprintf("the cached package for %s %s (in %s) does not match any of the checksums recorded in the dependency lock file", p, v, e.InstallDir)
	default:
		return fmt.Sprintf("the local package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://www.terraform.io/language/provider-checksum-verification", p, v)
	}
}
