package lifecycle

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// ReadData reads a data source with config (ReadDataSource) and checks the
// answer: it must be an object conforming to the schema, keep every value
// the configuration set, and be wholly known. The result carries the
// configuration's and the schema's marks. Planning and apply both read
// through here, so a deferred read is checked as strictly as one made
// while planning.
func ReadData(ctx context.Context, t *Target, config cty.Value) (cty.Value, diags.Diagnostics) {
	c := splitMarks(config)
	resp := t.Provider.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: t.typeName(), Config: c.u, ProviderMeta: t.meta()})
	ds := t.located(resp.Diagnostics, c)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	val := resp.State
	if val == cty.NilVal || val.IsNull() || val.Type().TestConformance(t.Schema.ImpliedType()) != nil {
		return cty.NilVal, ds.Append(t.contractError("Provider produced invalid object",
			"the data source returned a null object or one that does not conform to its schema"))
	}
	problems := append(objchange.AssertWhollyKnown(val),
		objchange.AssertPlanValidUnmarked(t.Schema, cty.NullVal(val.Type()), c.u, val, redactPaths(c))...)
	for _, err := range problems {
		ds = ds.Append(t.contractError("Provider produced invalid object", fmt.Sprintf("reading the data source gave %s", err)))
	}
	if len(problems) > 0 {
		return cty.NilVal, ds
	}
	return withMarks(t.Schema, val, c.marks, t.ProviderConfig).v, ds
}

// PlannedData is the value a data source to be read during apply has in
// the plan: its configuration, with every computed attribute the
// configuration leaves null unknown, and the configuration's and the
// schema's marks.
func PlannedData(schema *configschema.Block, config cty.Value) cty.Value {
	c := splitMarks(config)
	if !c.u.IsKnown() || c.u.IsNull() {
		return cty.UnknownVal(schema.ImpliedType())
	}
	attrs := c.u.AsValueMap()
	if attrs == nil {
		attrs = map[string]cty.Value{}
	}
	for name, a := range schema.Attributes {
		if a.Computed && c.u.GetAttr(name).IsNull() {
			attrs[name] = cty.UnknownVal(a.ImpliedType())
		}
	}
	return withMarks(schema, cty.ObjectVal(attrs), c.marks, cty.NilVal).v
}
