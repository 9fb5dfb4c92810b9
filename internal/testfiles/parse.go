package testfiles

import (
	"fmt"
	"sort"

	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "mock_provider", LabelNames: []string{"name"}},
		{Type: "override_resource"},
		{Type: "override_data"},
		{Type: "override_module"},
		{Type: "test"},
	},
}

var runSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "expect_failures"}, {Name: "providers"},
		{Name: "state_key"}, {Name: "parallel"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variables"}, {Type: "assert"}, {Type: "module"}, {Type: "plan_options"},
		{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"},
	},
}

// Parse parses one test file, in JSON syntax when its name ends in
// .json (*.tftest.json). Problems are diagnostics at the file's
// lines; the File is nil only when the file is not HCL at all.
func Parse(name string, src []byte) (*File, diags.Diagnostics) {
	var hf *hcl.File
	var hd hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		hf, hd = json.Parse(src, name)
	} else {
		hf, hd = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	}
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	if hd.HasErrors() {
		return nil, ds
	}
	content, hd := hf.Body.Content(fileSchema)
	ds = ds.Append(hd)
	f := &File{Name: name}
	seen := map[string]hcl.Range{}
	var testBlock *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "run":
			r, rds := parseRun(b)
			ds = ds.Append(rds)
			if prev, dup := seen[r.Name]; dup {
				ds = ds.Append(diags.At(b.LabelRanges[0], "Duplicate \"run\" block names",
					fmt.Sprintf("This test file already has a run block named %s defined at %s.", r.Name, prev)))
				continue
			}
			seen[r.Name] = b.DefRange
			f.Runs = append(f.Runs, r)
		case "variables":
			vs, vds := parseVariables(b)
			ds = ds.Append(vds)
			f.Variables = append(f.Variables, vs...)
		case "override_resource", "override_data", "override_module":
			o, ods := parseOverride(b)
			ds = ds.Append(ods)
			if o != nil {
				f.Overrides = append(f.Overrides, o)
			}
		case "provider":
			p, pds := configs.DecodeProviderBlock(b)
			ds = ds.Append(pds)
			if p != nil {
				f.Providers = append(f.Providers, p)
			}
		case "mock_provider":
			mp, mds := parseMockProvider(b)
			ds = ds.Append(mds)
			f.Mocks = append(f.Mocks, mp)
		case "test":
			ds = ds.Append(parseTestBlock(b, f, &testBlock))
		}
	}
	ds = ds.Append(f.checkProviders())
	for _, r := range f.Runs {
		if !r.parallelSet {
			r.Parallel = f.Parallel
		}
	}
	return f, ds
}

func parseRun(b *hcl.Block) (*Run, diags.Diagnostics) {
	r := &Run{Name: b.Labels[0], DeclRange: b.DefRange, Refresh: true}
	var ds diags.Diagnostics
	if !hclsyntax.ValidIdentifier(r.Name) {
		ds = ds.Append(diags.At(b.LabelRanges[0], "Invalid run block name",
			fmt.Sprintf("A run block name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes. %q is not valid.", r.Name)))
	}
	content, hd := b.Body.Content(runSchema)
	ds = ds.Append(hd)
	if a, ok := content.Attributes["command"]; ok {
		switch hcl.ExprAsKeyword(a.Expr) {
		case "apply":
			r.Command = Apply
		case "plan":
			r.Command = Plan
		default:
			ds = ds.Append(diags.At(a.Expr.Range(), "Invalid \"command\" keyword",
				"The \"command\" argument requires one of the following keywords without quotes: apply or plan."))
		}
	}
	if a, ok := content.Attributes["state_key"]; ok {
		ds = ds.Append(literalString(a, &r.StateKey))
	}
	if a, ok := content.Attributes["parallel"]; ok {
		ds = ds.Append(literalBool(a, &r.Parallel))
		r.parallelSet = true
	}
	if a, ok := content.Attributes["providers"]; ok {
		ms, mds := parseProviderMappings(a)
		ds = ds.Append(mds)
		r.Providers = ms
	}
	if a, ok := content.Attributes["expect_failures"]; ok {
		ts, tds := traversalList(a.Expr, "expect_failures")
		ds = ds.Append(tds)
		for _, t := range ts {
			r.ExpectFailures = append(r.ExpectFailures, ExpectedFailure{Traversal: t})
		}
	}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "variables":
			vs, vds := parseVariables(blk)
			ds = ds.Append(vds)
			r.Variables = append(r.Variables, vs...)
		case "assert":
			a, ads := parseAssert(blk)
			ds = ds.Append(ads)
			if a != nil {
				r.Asserts = append(r.Asserts, a)
			}
		case "module":
			m, mds := parseModule(blk)
			ds = ds.Append(mds)
			r.Module = m
		case "plan_options":
			ds = ds.Append(parsePlanOptions(blk, r))
		default:
			o, ods := parseOverride(blk)
			ds = ds.Append(ods)
			if o != nil {
				r.Overrides = append(r.Overrides, o)
			}
		}
	}
	return r, ds
}

// parseVariables reads a variables block's attributes in name order, so
// every run sees them in the same order.
func parseVariables(b *hcl.Block) ([]*Variable, diags.Diagnostics) {
	attrs, hd := b.Body.JustAttributes()
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	out := make([]*Variable, 0, len(attrs))
	for name, a := range attrs {
		out = append(out, &Variable{Name: name, Expr: a.Expr})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, ds
}

var assertSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "condition", Required: true}, {Name: "error_message", Required: true},
}}

func parseAssert(b *hcl.Block) (*configs.CheckRule, diags.Diagnostics) {
	content, hd := b.Body.Content(assertSchema)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return nil, ds
	}
	cond := content.Attributes["condition"].Expr
	if len(cond.Variables()) == 0 {
		ds = ds.Append(diags.At(cond.Range(), "Invalid assert expression",
			"The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything."))
	}
	return &configs.CheckRule{
		Condition: cond, ErrorMessage: content.Attributes["error_message"].Expr,
		DeclRange: b.DefRange,
	}, ds
}

var moduleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "source", Required: true}, {Name: "version"},
}}

func parseModule(b *hcl.Block) (*ModuleRef, diags.Diagnostics) {
	content, hd := b.Body.Content(moduleSchema)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return nil, ds
	}
	m := &ModuleRef{DeclRange: b.DefRange}
	ds = ds.Append(literalString(content.Attributes["source"], &m.Source))
	if a, ok := content.Attributes["version"]; ok {
		ds = ds.Append(literalString(a, &m.Version))
	}
	return m, ds
}

var planOptionsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"},
}}

func parsePlanOptions(b *hcl.Block, r *Run) diags.Diagnostics {
	content, hd := b.Body.Content(planOptionsSchema)
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	if a, ok := content.Attributes["mode"]; ok {
		switch hcl.ExprAsKeyword(a.Expr) {
		case "normal":
			r.PlanMode = plans.NormalMode
		case "refresh-only":
			r.PlanMode = plans.RefreshOnlyMode
		default:
			ds = ds.Append(diags.At(a.Expr.Range(), "Invalid \"mode\" keyword",
				"The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only."))
		}
	}
	if a, ok := content.Attributes["refresh"]; ok {
		v, vds := a.Expr.Value(nil)
		ds = ds.Append(vds)
		if !vds.HasErrors() {
			if v.Type() != cty.Bool || v.IsNull() {
				ds = ds.Append(diags.At(a.Expr.Range(), "Invalid \"refresh\" value", "The \"refresh\" argument must be true or false."))
			} else {
				r.Refresh = v.True()
			}
		}
	}
	for name, dst := range map[string]*[]hcl.Traversal{"replace": &r.Replace, "target": &r.Targets} {
		if a, ok := content.Attributes[name]; ok {
			ts, tds := traversalList(a.Expr, name)
			ds = ds.Append(tds)
			*dst = ts
		}
	}
	return ds
}

// traversalList reads a list of references written without quotes
// (expect_failures, replace, target).
func traversalList(expr hcl.Expression, what string) ([]hcl.Traversal, diags.Diagnostics) {
	exprs, hd := hcl.ExprList(expr)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return nil, ds
	}
	var out []hcl.Traversal
	for _, e := range exprs {
		t, thd := hcl.AbsTraversalForExpr(e)
		if thd.HasErrors() {
			ds = ds.Append(diags.At(e.Range(), "Invalid reference",
				fmt.Sprintf("Each element of %s must be a reference to an object, written without quotes.", what)))
			continue
		}
		out = append(out, t)
	}
	return out, ds
}

func literalString(a *hcl.Attribute, dst *string) diags.Diagnostics {
	v, hd := a.Expr.Value(nil)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return ds
	}
	if v.Type() != cty.String || v.IsNull() {
		return ds.Append(diags.At(a.Expr.Range(), "Invalid value", fmt.Sprintf("The %q argument must be a string.", a.Name)))
	}
	*dst = v.AsString()
	return ds
}

func literalBool(a *hcl.Attribute, dst *bool) diags.Diagnostics {
	v, hd := a.Expr.Value(nil)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return ds
	}
	if v.Type() != cty.Bool || v.IsNull() {
		return ds.Append(diags.At(a.Expr.Range(), "Invalid value", fmt.Sprintf("The %q argument must be true or false.", a.Name)))
	}
	*dst = v.True()
	return ds
}
