package configs

import (
	"fmt"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
)

// LanguageVersion is the Terraform version whose language Cairn implements.
// required_version constraints are checked against it, so configurations
// written for a Terraform release with different behaviour are refused up
// front instead of being planned with the wrong semantics.
const LanguageVersion = "1.5.7"

// decodeVersionConstraint reads the expression of a version constraint
// argument called name (required_version, or a provider's version) and
// checks that it parses.
func decodeVersionConstraint(name string, expr hcl.Expression) (VersionConstraint, bool, hcl.Diagnostics) {
	s, ok, diags := staticString(name, expr)
	vc := VersionConstraint{Constraint: s, DeclRange: expr.Range()}
	if !ok {
		return vc, false, diags
	}
	if _, err := version.NewConstraint(s); err != nil {
		return vc, false, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail: fmt.Sprintf("%q is not a version constraint: %s. Write constraints such as \">= 1.2.0\" "+
				"or \"~> 1.5\", separated by commas.", s, err),
			Subject: expr.Range().Ptr(),
		})
	}
	return vc, true, diags
}

// checkLanguageVersion reports each required_version constraint that
// LanguageVersion does not satisfy. Constraints that do not parse were
// already reported when they were decoded. It panics only if
// LanguageVersion itself does not parse, which is a programming error.
func checkLanguageVersion(constraints []VersionConstraint) hcl.Diagnostics {
	current, err := version.NewVersion(LanguageVersion)
	if err != nil {
		panic(fmt.Sprintf("configs: LanguageVersion %q does not parse: %s", LanguageVersion, err))
	}
	var diags hcl.Diagnostics
	for _, vc := range constraints {
		c, err := version.NewConstraint(vc.Constraint)
		if err != nil || c.Check(current) {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported Terraform Core version",
			Detail: fmt.Sprintf("This configuration requires Terraform %s, but Cairn implements the "+
				"language of Terraform %s. Relax the required_version constraint if the configuration "+
				"works with %s, or run it with a Terraform version that satisfies it.",
				vc.Constraint, LanguageVersion, LanguageVersion),
			Subject: vc.DeclRange.Ptr(),
		})
	}
	return diags
}
