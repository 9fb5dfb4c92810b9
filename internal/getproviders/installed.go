package getproviders

import (
	"fmt"
	"path/filepath"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// Installed returns the directory of an installed package under
// TargetDir after checking its hash with accept, for commands after init
// (plan, apply) that must refuse a plugin changed since it was locked.
// A package that is not installed is an error telling the user to run
// init; a changed one is a *HashMismatchError.
func (in Installer) Installed(p addrs.Provider, v *version.Version, plat Platform, accept func(hash string) bool) (Installed, error) {
	pkg := Package{Provider: p, Version: v, Platform: plat}
	dir := filepath.Join(in.TargetDir, packagePath(pkg))
	if !isDir(dir) {
		return Installed{}, fmt.Errorf("the selected version %s of provider %s is not installed in %s; run cairn init", v, p.ForDisplay(), in.TargetDir)
	}
	hash, err := PackageHashH1(dir)
	if err != nil {
		return Installed{}, err
	}
	pkg.Location = dir
	if accept != nil && !accept(hash) {
		return Installed{}, &HashMismatchError{Package: pkg, Hash: hash}
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
		Detail:   fmt.Sprintf("Error while installing %s v%s: %s", pkg.Provider, pkg.Version, err),
		Subject:  subject,
	}
}
