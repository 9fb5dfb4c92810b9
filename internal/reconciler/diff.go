package reconciler

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/fieldname"
)

// ReplaceRefusedError is Observe's answer when spec asks for a change the
// provider can only make by replacing the external resource.
type ReplaceRefusedError struct {
	// Fields are the spec.forProvider fields that force replacement.
	Fields []string
}

func (e *ReplaceRefusedError) Error() string {
	return fmt.Sprintf("cannot change %s without replacing the external resource, which the controller never does "+
		"(prevent_destroy): change the field back, or delete this managed resource and create a new one",
		strings.Join(e.Fields, ", "))
}

// replacing returns, as spec field paths, the requires-replace paths
// whose values differ between prior and planned (an unknown planned
// value differs).
func replacing(prior, planned cty.Value, paths []cty.Path) []string {
	var out []string
	for _, p := range paths {
		a, aerr := p.Apply(prior)
		b, berr := p.Apply(planned)
		if aerr != nil && berr != nil {
			continue
		}
		if aerr == nil && berr == nil && b.IsWhollyKnown() && a.RawEquals(b) {
			continue
		}
		out = append(out, fieldPath(p))
	}
	sort.Strings(out)
	return out
}

// changedFields names the top-level fields whose values differ, for the
// observation's Diff (logged at debug level).
func changedFields(prior, planned cty.Value) string {
	if prior.IsNull() || planned.IsNull() {
		return ""
	}
	var out []string
	for name := range prior.Type().AttributeTypes() {
		a, b := prior.GetAttr(name), planned.GetAttr(name)
		if !b.IsWhollyKnown() || !a.RawEquals(b) {
			out = append(out, fieldname.Camel(name))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// fieldPath writes a cty path as the spec field it is
// ("spec.forProvider.rules[0].port").
func fieldPath(p cty.Path) string {
	var b strings.Builder
	b.WriteString("spec.forProvider")
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + fieldname.Camel(s.Name))
		case cty.IndexStep:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else if s.Key.Type() == cty.Number {
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	return b.String()
}
