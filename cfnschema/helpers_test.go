package cfnschema

import (
	"os"
	"path/filepath"
	"testing"
)

// attrSummary is what rule tests compare: the attribute as Explain shows it.
type attrSummary struct {
	Type       string
	Flags      string
	Validators []string
	Modifiers  []string
}

func summarize(a *Attribute) attrSummary {
	return attrSummary{
		Type:       TypeString(a.Type),
		Flags:      flagString(a),
		Validators: validatorDescriptions(a),
		Modifiers:  modifierDescriptions(a),
	}
}

// loadRule loads testdata/rules/NAME.json and fails the test on errors.
func loadRule(t *testing.T, name string, opts ...Option) (*ResourceType, Diagnostics) {
	t.Helper()
	file := filepath.Join("testdata", "rules", name+".json")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rt, diags := Load(file, src, opts...)
	if diags.HasErrors() || rt == nil {
		t.Fatalf("loading %s: %v", file, diags)
	}
	return rt, diags
}

// mustAttribute returns the attribute at a Terraform path or fails.
func mustAttribute(t *testing.T, rt *ResourceType, path string) *Attribute {
	t.Helper()
	a := rt.Attribute(path)
	if a == nil {
		var have []string
		rt.Walk(func(a *Attribute) { have = append(have, a.Path.String()) })
		t.Fatalf("%s has no attribute %s; have %v", rt.TypeName, path, have)
	}
	return a
}
