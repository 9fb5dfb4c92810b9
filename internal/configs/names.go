package configs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// checkName reports an invalid identifier used as the name of something
// (kind is e.g. "variable name"), at the label or attribute name that
// declares it.
func checkName(name, kind string, rng hcl.Range) hcl.Diagnostics {
	if addrs.ValidIdentifier(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + kind,
		Detail: fmt.Sprintf("%q is not a valid %s: a name must start with a letter or underscore and "+
			"contain only letters, digits, underscores and dashes. Rename it.", name, kind),
		Subject: rng.Ptr(),
	}}
}

// checkProviderLocalName reports a provider local name that is not in the
// normalized form provider addresses use: lower-case letters, digits and
// dashes, not starting or ending with a dash. Underscores are excluded
// because resource type names are split at the first underscore to find
// their provider.
func checkProviderLocalName(name string, rng hcl.Range) hcl.Diagnostics {
	why := ""
	switch {
	case name == "":
		why = "it is empty"
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		why = "it must not start or end with a dash"
	case strings.ToLower(name) != name:
		why = fmt.Sprintf("provider names are lower case; write %q", strings.ToLower(name))
	default:
		for _, c := range name {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				why = "it may contain only lower-case letters, digits and dashes"
				break
			}
		}
	}
	if why == "" {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider local name",
		Detail:   fmt.Sprintf("%q is not a valid provider name: %s.", name, why),
		Subject:  rng.Ptr(),
	}}
}

// duplicateDiag reports a second declaration of something already declared
// at prev. what names it for the detail (`A variable named "x"`) and fix
// says how to resolve the clash.
func duplicateDiag(summary, what, fix string, prev, subject hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf("%s was already declared at %s. %s", what, posString(prev), fix),
		Subject:  subject.Ptr(),
	}
}

// renameOrRemove is the fix for most duplicate declarations.
const renameOrRemove = "Rename or remove one of the two declarations."

// posString formats the start of a range the way diagnostics print it:
// file:line:col.
func posString(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// attrsInSourceOrder returns the attributes of a map in the order they
// appear in the file, so that diagnostics and "first declaration wins"
// rules do not depend on map iteration order.
func attrsInSourceOrder(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].NameRange, out[j].NameRange
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Start.Byte != b.Start.Byte {
			return a.Start.Byte < b.Start.Byte
		}
		return out[i].Name < out[j].Name
	})
	return out
}
