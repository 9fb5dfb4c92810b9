package testfiles

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
)

var overrideSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "target", Required: true}, {Name: "values"}, {Name: "outputs"}, {Name: "override_during"},
}}

// parseOverride reads an override_resource, override_data or
// override_module block.
func parseOverride(b *hcl.Block) (*Override, diags.Diagnostics) {
	content, hd := b.Body.Content(overrideSchema)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return nil, ds
	}
	o := &Override{DeclRange: b.DefRange, Values: cty.EmptyObjectVal}
	valuesAttr := "values"
	switch b.Type {
	case "override_data":
		o.Kind = OverrideData
	case "override_module":
		o.Kind, valuesAttr = OverrideModule, "outputs"
	}
	t, thd := hcl.AbsTraversalForExpr(content.Attributes["target"].Expr)
	if thd.HasErrors() {
		return nil, ds.Append(diags.At(content.Attributes["target"].Expr.Range(), "Invalid reference",
			"The target of an override must be a reference to an object, written without quotes."))
	}
	o.Target = t
	for name, a := range content.Attributes {
		if name == "values" || name == "outputs" {
			if name != valuesAttr {
				ds = ds.Append(diags.At(a.NameRange, "Unsupported argument",
					fmt.Sprintf("An argument named %q is not expected here; %s takes %q.", name, b.Type, valuesAttr)))
				continue
			}
			v, vds := staticObject(a)
			ds = ds.Append(vds)
			o.Values = v
		}
	}
	during, dds := overrideDuring(content.Attributes["override_during"])
	ds = ds.Append(dds)
	o.DuringPlan, o.duringSet = during, content.Attributes["override_during"] != nil
	return o, ds
}

// overrideDuring reads override_during: apply (the default) or plan.
func overrideDuring(a *hcl.Attribute) (bool, diags.Diagnostics) {
	if a == nil {
		return false, nil
	}
	switch hcl.ExprAsKeyword(a.Expr) {
	case "apply":
		return false, nil
	case "plan":
		return true, nil
	}
	return false, diags.Diagnostics{diags.At(a.Expr.Range(), "Invalid \"override_during\" keyword",
		"The \"override_during\" argument requires one of the following keywords without quotes: apply or plan.")}
}

// staticObject evaluates an object attribute that may refer to nothing.
func staticObject(a *hcl.Attribute) (cty.Value, diags.Diagnostics) {
	v, hd := a.Expr.Value(nil)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return cty.EmptyObjectVal, ds
	}
	if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return cty.EmptyObjectVal, ds.Append(diags.At(a.Expr.Range(), "Invalid value",
			fmt.Sprintf("The %q argument must be an object.", a.Name)))
	}
	return v, ds
}

var mockProviderSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "source"}, {Name: "override_during"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "mock_resource", LabelNames: []string{"type"}},
		{Type: "mock_data", LabelNames: []string{"type"}},
		{Type: "override_resource"}, {Type: "override_data"},
	},
}

var mockDefaultsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}, {Name: "override_during"}}}

// parseMockProvider reads a mock_provider block.
func parseMockProvider(b *hcl.Block) (*MockProvider, diags.Diagnostics) {
	mp := &MockProvider{Name: b.Labels[0], DeclRange: b.DefRange,
		Resources: map[string]cty.Value{}, Data: map[string]cty.Value{}}
	content, hd := b.Body.Content(mockProviderSchema)
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	if a, ok := content.Attributes["alias"]; ok {
		ds = ds.Append(literalString(a, &mp.Alias))
	}
	if a, ok := content.Attributes["source"]; ok {
		ds = ds.Append(literalString(a, &mp.Source))
		mp.SourceRange = a.Expr.Range()
	}
	during, dds := overrideDuring(content.Attributes["override_during"])
	ds = ds.Append(dds)
	mp.DuringPlan = during
	ds = ds.Append(mp.addBlocks(content.Blocks))
	return mp, ds
}

// addBlocks adds mock_resource, mock_data and override blocks to mp: a
// mock_provider block's own, or a mock data file's.
func (mp *MockProvider) addBlocks(blocks hcl.Blocks) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, blk := range blocks {
		switch blk.Type {
		case "mock_resource", "mock_data":
			c, chd := blk.Body.Content(mockDefaultsSchema)
			ds = ds.Append(chd)
			v := cty.EmptyObjectVal
			if a, ok := c.Attributes["defaults"]; ok {
				var vds diags.Diagnostics
				v, vds = staticObject(a)
				ds = ds.Append(vds)
			}
			if blk.Type == "mock_resource" {
				mp.Resources[blk.Labels[0]] = v
			} else {
				mp.Data[blk.Labels[0]] = v
			}
		default:
			o, ods := parseOverride(blk)
			ds = ds.Append(ods)
			if o != nil {
				if !o.duringSet {
					o.DuringPlan = mp.DuringPlan
				}
				mp.Overrides = append(mp.Overrides, o)
			}
		}
	}
	return ds
}
