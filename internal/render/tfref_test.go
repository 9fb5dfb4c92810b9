package render

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// This file turns the JSON documents real Terraform 1.5.7 printed (under
// testdata/terraform) back into Cairn's plan and state models, so a test
// can render Cairn's equivalent of a plan Terraform made and compare the
// text with what Terraform printed for it.

// terraformRemoteStateSchema is the schema of Terraform's built-in
// terraform_remote_state data source, which one captured plan reads.
var terraformRemoteStateSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"backend":   {Type: cty.String, Required: true},
		"config":    {Type: cty.DynamicPseudoType, Optional: true},
		"defaults":  {Type: cty.DynamicPseudoType, Optional: true},
		"outputs":   {Type: cty.DynamicPseudoType, Computed: true},
		"workspace": {Type: cty.String, Optional: true},
	},
}

// terraformSchemas returns the built-in provider's schemas, plus
// terraform_remote_state.
func terraformSchemas(t testing.TB) providers.Schemas {
	t.Helper()
	resp := builtin.NewTerraformProvider().GetProviderSchema(context.Background())
	ds := map[string]providers.Schema{"terraform_remote_state": {Block: terraformRemoteStateSchema}}
	for k, v := range resp.DataSources {
		ds[k] = v
	}
	resp.DataSources = ds
	return providers.Schemas{builtin.TerraformProviderAddr: &resp}
}

// readTerraformPlan reads a JSON plan Terraform printed, keeping numbers
// exact.
func readTerraformPlan(t testing.TB, path string) *tfjson.Plan {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "terraform", path))
	if err != nil {
		t.Fatal(err)
	}
	var p tfjson.Plan
	p.UseJSONNumber(true)
	if err := p.UnmarshalJSON(src); err != nil {
		t.Fatalf("reading %s: %s", path, err)
	}
	return &p
}

// planFromTerraform rebuilds the plans.Plan behind a JSON plan.
func planFromTerraform(t testing.TB, path string, mode plans.Mode, schemas providers.Schemas) *plans.Plan {
	t.Helper()
	tp := readTerraformPlan(t, path)
	p := &plans.Plan{Mode: mode, VariableValues: map[string]cty.Value{}}
	for _, rc := range tp.ResourceChanges {
		p.Changes = append(p.Changes, changeFromTerraform(t, rc, schemas))
	}
	for name, oc := range tp.OutputChanges {
		p.Outputs = append(p.Outputs, outputFromTerraform(name, oc))
	}
	for name, v := range tp.Variables {
		p.VariableValues[name] = valueFromJSON(v.Value, nil, cty.DynamicPseudoType)
	}
	if tp.PriorState != nil {
		// The nested state was decoded without UseNumber; decode it again
		// so large numbers stay exact.
		var raw struct {
			PriorState json.RawMessage `json:"prior_state"`
		}
		if err := json.Unmarshal([]byte(readGolden(t, filepath.Join("terraform", path))), &raw); err != nil {
			t.Fatal(err)
		}
		var ps tfjson.State
		ps.UseJSONNumber(true)
		if err := ps.UnmarshalJSON(raw.PriorState); err != nil {
			t.Fatal(err)
		}
		p.PriorState = stateFromTerraform(t, &ps, schemas)
	}
	if tp.Timestamp != "" {
		ts, err := time.Parse(time.RFC3339, tp.Timestamp)
		if err != nil {
			t.Fatal(err)
		}
		p.Timestamp = ts
	}
	p.SortChanges()
	return p
}

func instanceAddr(t testing.TB, mode tfjson.ResourceMode, typ, name string, index any) addrs.AbsResourceInstance {
	t.Helper()
	m := addrs.ManagedResourceMode
	if mode == tfjson.DataResourceMode {
		m = addrs.DataResourceMode
	}
	var key addrs.InstanceKey
	switch k := index.(type) {
	case json.Number:
		n, err := k.Int64()
		if err != nil {
			t.Fatal(err)
		}
		key = addrs.IntKey(n)
	case float64:
		key = addrs.IntKey(int(k))
	case string:
		key = addrs.StringKey(k)
	}
	return addrs.Resource{Mode: m, Type: typ, Name: name}.Absolute(addrs.RootModuleInstance).Instance(key)
}

func providerConfig(t testing.TB, name string) addrs.AbsProviderConfig {
	t.Helper()
	p, err := addrs.ParseProviderSource(name)
	if err != nil {
		t.Fatal(err)
	}
	return addrs.AbsProviderConfig{Provider: p}
}

var actionsFromJSON = map[string]plans.Action{
	`["no-op"]`: plans.NoOp, `["create"]`: plans.Create, `["read"]`: plans.Read,
	`["update"]`: plans.Update, `["delete"]`: plans.Delete,
	`["delete","create"]`: plans.DeleteThenCreate, `["create","delete"]`: plans.CreateThenDelete,
}

func actionFromTerraform(t testing.TB, as tfjson.Actions) plans.Action {
	t.Helper()
	b, _ := json.Marshal(as)
	a, ok := actionsFromJSON[string(b)]
	if !ok {
		t.Fatalf("unknown actions %s", b)
	}
	return a
}

func reasonFromTerraform(r tfjson.ActionReason) plans.ActionReason {
	for i := plans.ReasonNone; i <= plans.ReasonDeleteBecauseNoMoveTarget; i++ {
		if i.JSON() == string(r) {
			return i
		}
	}
	return plans.ReasonNone
}

func changeFromTerraform(t testing.TB, rc *tfjson.ResourceChange, schemas providers.Schemas) *plans.ResourceInstanceChange {
	t.Helper()
	addr := instanceAddr(t, rc.Mode, rc.Type, rc.Name, rc.Index)
	if rc.ModuleAddress != "" {
		m, err := addrs.ParseModuleInstanceStr(rc.ModuleAddress)
		if err != nil {
			t.Fatal(err)
		}
		addr.Module = m
	}
	prov := providerConfig(t, rc.ProviderName)
	schema, version := schemas.ResourceTypeSchema(prov.Provider, addr.Resource.Resource.Mode, rc.Type)
	if schema == nil {
		t.Fatalf("no schema for %s", rc.Address)
	}
	ty := schema.ImpliedType()
	c := &plans.ResourceInstanceChange{
		Addr:          addr,
		DeposedKey:    addrs.DeposedKey(rc.DeposedKey),
		Provider:      prov,
		Action:        actionFromTerraform(t, rc.Change.Actions),
		ActionReason:  reasonFromTerraform(rc.ActionReason),
		Before:        markSensitive(valueFromJSON(rc.Change.Before, nil, ty), rc.Change.BeforeSensitive),
		SchemaVersion: version,
	}
	c.PrevRunAddr = addr
	if rc.PreviousAddress != "" {
		prev, ds := addrs.ParseAbsResourceInstanceStr(rc.PreviousAddress)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		c.PrevRunAddr = prev
	}
	if c.Action == plans.Delete {
		c.After = cty.NullVal(ty)
	} else {
		c.After = markSensitive(valueFromJSON(rc.Change.After, rc.Change.AfterUnknown, ty), rc.Change.AfterSensitive)
	}
	if rc.Type == "terraform_data" {
		c.After = typedOutput(c.After)
	}
	for _, p := range rc.Change.ReplacePaths {
		c.RequiredReplace = append(c.RequiredReplace, pathFromJSON(p))
	}
	return c
}

func outputFromTerraform(name string, oc *tfjson.Change) *plans.OutputChange {
	sens, _ := oc.BeforeSensitive.(bool)
	o := &plans.OutputChange{Name: name, Sensitive: sens}
	o.Before = valueFromJSON(oc.Before, nil, cty.DynamicPseudoType)
	o.After = valueFromJSON(oc.After, oc.AfterUnknown, cty.DynamicPseudoType)
	o.Action = plans.Update
	switch {
	case oc.Actions.NoOp():
		o.Action = plans.NoOp
	case oc.Actions.Create():
		o.Action = plans.Create
	case oc.Actions.Delete():
		o.Action = plans.Delete
	}
	return o
}

// valueFromJSON rebuilds a value of type ty from its JSON form and its
// unknown mask (true at unknown values). Dynamically typed values take the
// type their JSON implies: objects and tuples.
func valueFromJSON(v any, unknown any, ty cty.Type) cty.Value {
	if u, ok := unknown.(bool); ok && u {
		return cty.UnknownVal(ty)
	}
	if ty == cty.DynamicPseudoType {
		return impliedFromJSON(v, unknown)
	}
	if v == nil {
		return cty.NullVal(ty)
	}
	switch {
	case ty == cty.String:
		return cty.StringVal(v.(string))
	case ty == cty.Bool:
		return cty.BoolVal(v.(bool))
	case ty == cty.Number:
		return numberFromJSON(v)
	case ty.IsObjectType():
		m, _ := v.(map[string]any)
		um, _ := unknown.(map[string]any)
		vals := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			vals[name] = valueFromJSON(m[name], um[name], aty)
		}
		return cty.ObjectVal(vals)
	case ty.IsTupleType():
		s, _ := v.([]any)
		us, _ := unknown.([]any)
		ets := ty.TupleElementTypes()
		if len(ets) == 0 {
			return cty.EmptyTupleVal
		}
		vals := make([]cty.Value, len(ets))
		for i, et := range ets {
			var u any
			if i < len(us) {
				u = us[i]
			}
			vals[i] = valueFromJSON(s[i], u, et)
		}
		return cty.TupleVal(vals)
	case ty.IsMapType():
		m, _ := v.(map[string]any)
		um, _ := unknown.(map[string]any)
		if len(m) == 0 {
			return cty.MapValEmpty(ty.ElementType())
		}
		vals := map[string]cty.Value{}
		for k, e := range m {
			vals[k] = valueFromJSON(e, um[k], ty.ElementType())
		}
		return cty.MapVal(vals)
	case ty.IsListType(), ty.IsSetType():
		s, _ := v.([]any)
		us, _ := unknown.([]any)
		var vals []cty.Value
		for i, e := range s {
			var u any
			if i < len(us) {
				u = us[i]
			}
			vals = append(vals, valueFromJSON(e, u, ty.ElementType()))
		}
		switch {
		case len(vals) == 0 && ty.IsListType():
			return cty.ListValEmpty(ty.ElementType())
		case len(vals) == 0:
			return cty.SetValEmpty(ty.ElementType())
		case ty.IsListType():
			return cty.ListVal(vals)
		}
		return cty.SetVal(vals)
	}
	panic("unsupported type " + ty.FriendlyName())
}

func impliedFromJSON(v any, unknown any) cty.Value {
	switch v := v.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType)
	case bool:
		return cty.BoolVal(v)
	case string:
		return cty.StringVal(v)
	case json.Number, float64:
		return numberFromJSON(v)
	case []any:
		us, _ := unknown.([]any)
		if len(v) == 0 {
			return cty.EmptyTupleVal
		}
		vals := make([]cty.Value, len(v))
		for i, e := range v {
			var u any
			if i < len(us) {
				u = us[i]
			}
			vals[i] = valueFromJSON(e, u, cty.DynamicPseudoType)
		}
		return cty.TupleVal(vals)
	case map[string]any:
		um, _ := unknown.(map[string]any)
		vals := map[string]cty.Value{}
		for k, e := range v {
			vals[k] = valueFromJSON(e, um[k], cty.DynamicPseudoType)
		}
		for k, u := range um {
			if b, ok := u.(bool); ok && b {
				vals[k] = cty.DynamicVal
			}
		}
		if len(vals) == 0 {
			return cty.EmptyObjectVal
		}
		return cty.ObjectVal(vals)
	}
	panic("unsupported JSON value")
}

// markSensitive marks v wherever the sensitivity mask (true at sensitive
// values) says.
func markSensitive(v cty.Value, mask any) cty.Value {
	var pvm []cty.PathValueMarks
	var walk func(m any, p cty.Path)
	walk = func(m any, p cty.Path) {
		switch m := m.(type) {
		case bool:
			if m {
				pvm = append(pvm, cty.PathValueMarks{Path: p.Copy(), Marks: cty.NewValueMarks(configschema.SensitiveMark)})
			}
		case map[string]any:
			for k, e := range m {
				walk(e, p.GetAttr(k))
			}
		case []any:
			for i, e := range m {
				walk(e, p.IndexInt(i))
			}
		}
	}
	walk(mask, nil)
	if len(pvm) == 0 {
		return v
	}
	return v.MarkWithPaths(pvm)
}

func pathFromJSON(steps any) cty.Path {
	var p cty.Path
	for _, s := range steps.([]any) {
		switch s := s.(type) {
		case string:
			p = p.GetAttr(s)
		case json.Number:
			n, _ := s.Int64()
			p = p.IndexInt(int(n))
		case float64:
			p = p.IndexInt(int(s))
		}
	}
	return p
}

// stateFromTerraform rebuilds a state from `terraform show -json`.
func stateFromTerraform(t testing.TB, ts *tfjson.State, schemas providers.Schemas) *states.State {
	t.Helper()
	s := states.NewState()
	if ts.Values == nil {
		return s
	}
	for name, o := range ts.Values.Outputs {
		v := valueFromJSON(o.Value, nil, o.Type)
		s.Outputs[name] = &states.OutputValue{Value: v, Sensitive: o.Sensitive}
	}
	if ts.Values.RootModule == nil {
		return s
	}
	for _, r := range ts.Values.RootModule.Resources {
		addr := instanceAddr(t, r.Mode, r.Type, r.Name, r.Index)
		prov := providerConfig(t, r.ProviderName)
		schema, version := schemas.ResourceTypeSchema(prov.Provider, addr.Resource.Resource.Mode, r.Type)
		ty := schema.ImpliedType()
		vals := map[string]any{}
		for k, v := range r.AttributeValues {
			vals[k] = v
		}
		var mask any
		if len(r.SensitiveValues) > 0 {
			if err := json.Unmarshal(r.SensitiveValues, &mask); err != nil {
				t.Fatal(err)
			}
		}
		obj := &states.Object{Value: markSensitive(valueFromJSON(vals, nil, ty), mask), Status: states.ObjectReady}
		if r.Tainted {
			obj.Status = states.ObjectTainted
		}
		for _, d := range r.DependsOn {
			dep, diags := addrs.ParseAbsResourceInstanceStr(d)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			obj.Dependencies = append(obj.Dependencies, dep.ContainingResource())
		}
		src, err := obj.Encode(ty, uint64(version))
		if err != nil {
			t.Fatal(err)
		}
		if r.DeposedKey != "" {
			s.SetResourceInstanceDeposed(addr, addrs.DeposedKey(r.DeposedKey), src, prov)
		} else {
			s.SetResourceInstanceCurrent(addr, src, prov)
		}
	}
	return s
}

// sortedKeys returns the keys of m in order.
// numberFromJSON converts a JSON number, decoded with or without
// UseNumber.
func numberFromJSON(v any) cty.Value {
	if f, ok := v.(float64); ok {
		return cty.NumberFloatVal(f)
	}
	return cty.MustParseNumberVal(string(v.(json.Number)))
}

// tfjsonState decodes `terraform show -json` output.
type tfjsonState struct{ tfjson.State }

func (s *tfjsonState) decode(t testing.TB, src string) {
	t.Helper()
	if err := s.State.UnmarshalJSON([]byte(src)); err != nil {
		t.Fatal(err)
	}
}

func parseInstance(t testing.TB, s string) addrs.AbsResourceInstance {
	t.Helper()
	addr, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return addr
}

// typedOutput gives terraform_data's unknown planned output the type of its
// input, as the provider plans it; JSON does not record the type of an
// unknown value, but Terraform's masks reveal it.
func typedOutput(v cty.Value) cty.Value {
	if !v.IsKnown() || v.IsNull() {
		return v
	}
	attrs := v.AsValueMap()
	in, out := attrs["input"], attrs["output"]
	if out.IsKnown() || !in.IsKnown() {
		return v
	}
	plain, _ := in.Unmark()
	if plain.IsNull() {
		return v
	}
	attrs["output"] = cty.UnknownVal(plain.Type())
	return cty.ObjectVal(attrs)
}
