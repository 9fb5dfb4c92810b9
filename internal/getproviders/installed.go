package getproviders

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// Installed returns the directory of an installed package under
// TargetDir after checking its hash with accept, for commands after init
// (plan, apply) that must refuse a plugin changed since it was locked.
// A package that is not installed is an error; a changed one is a
// *HashMismatchError. Both are worded as Terraform's and are meant for
// NotInstalledDiagnostic.
func (in Installer) Installed(p addrs.Provider, v *version.Version, plat Platform, accept func(hash string) bool) (Installed, error) {
	pkg := Package{Provider: p, Version: v, Platform: plat}
	dir := filepath.Join(in.TargetDir, packagePath(pkg))
	if !isDir(dir) {
		return Installed{}, fmt.Errorf("there is no package for %s %s cached in %s", p, v, in.TargetDir)
	}
	hash, err := PackageHashH1(dir)
	if err != nil {
		return Installed{}, err
	}
	pkg.Location = dir
	if accept != nil && !accept(hash) {
		return Installed{}, &HashMismatchError{Package: pkg, Hash: hash, Stage: AlreadyInstalled, InstallDir: in.TargetDir}
	}
	return Installed{Dir: dir, Hash: hash}, nil
}

// QueryDiagnostic turns an error from Source.Available or Select into
// Terraform's "Failed to query available provider packages" diagnostic,
// placed at subject (the required_providers entry) when known.
func QueryDiagnostic(p addrs.Provider, err error, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Failed to query available provider packages",
		Detail:   fmt.Sprintf("Could not retrieve the list of available versions for provider %s: %s", p, err),
		Subject:  subject,
	}
}

// InstallDiagnostic turns an error from Install into Terraform's "Failed
// to install provider" diagnostic.
func InstallDiagnostic(pkg Package, err error, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Failed to install provider",
		Detail:   fmt.Sprintf("Error while installing %s v%s: %s", pkg.Provider.ForDisplay(), pkg.Version, err),
		Subject:  subject,
	}
}

// NotInstalledDiagnostic gathers Installed's errors for every provider
// into Terraform's "Required plugins are not installed" diagnostic,
// providers in address order.
func NotInstalledDiagnostic(errs map[addrs.Provider]error) *hcl.Diagnostic {
	lines := make([]string, 0, len(errs))
	for p, err := range errs {
		lines = append(lines, fmt.Sprintf("\n  - %s: %s", p, err))
	}
	sort.Strings(lines)
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Required plugins are not installed",
		Detail: "The installed provider plugins are not consistent with the packages selected in the dependency lock file:" + strings.Join(lines, "") +
			"\n\nCairn uses external plugins to integrate with a variety of different infrastructure services. To download the plugins required for this configuration, run:\n  cairn init",
	}
}

// PlatformDiagnostic is Terraform's "Incompatible provider version" for a
// selected version the registry lists without the current platform.
func PlatformDiagnostic(pkg Package, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Incompatible provider version",
		Detail: fmt.Sprintf("Provider %s v%s does not have a package available for your current platform, %s.\n\n"+
			"Provider releases are separate from Cairn releases, so not all providers are available for all platforms. "+
			"Other versions of this provider may have different platforms supported.", pkg.Provider.ForDisplay(), pkg.Version, pkg.Platform),
		Subject: subject,
	}
}
