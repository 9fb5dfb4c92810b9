package render

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// FuzzRenderValues renders terraform_data changes between arbitrary JSON
// values, some parts sensitive or unknown, as text and as JSON documents.
// The property: rendering never panics and never fails on a well-formed
// plan.
func FuzzRenderValues(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"a":[1,2,{"b":"x\ny"}]}`, `{"a":[1,3,{"b":"x\nz"}],"c":null}`},
		{`"{\"k\": [1]}"`, `"{\"k\":[1]}"`},
		{`[null, "x", []]`, `{"x": [null]}`},
		{`"line\nline"`, `12345678901234567890`},
		{`null`, `true`},
	} {
		f.Add(seed[0], seed[1], uint8(0))
	}
	schemas := builtinSchemas()
	f.Fuzz(func(t *testing.T, before, after string, flags uint8) {
		bv, ok1 := fuzzValue(before)
		av, ok2 := fuzzValue(after)
		if !ok1 || !ok2 {
			t.Skip()
		}
		if flags&1 != 0 {
			bv = bv.Mark(configschema.SensitiveMark)
		}
		if flags&2 != 0 {
			av = av.Mark(configschema.SensitiveMark)
		}
		if flags&4 != 0 {
			av = unknownLeaves(av)
		}
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "f"}.Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey)
		prov := addrs.AbsProviderConfig{Provider: builtin.TerraformProviderAddr}
		obj := func(id, in cty.Value) cty.Value {
			return cty.ObjectVal(map[string]cty.Value{"id": id, "input": in, "output": in, "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
		}
		p := &plans.Plan{
			Changes: []*plans.ResourceInstanceChange{{
				Addr: addr, Provider: prov, Action: plans.Update,
				Before: obj(cty.StringVal("i"), bv), After: obj(cty.StringVal("i"), av),
				RequiredReplace: []cty.Path{cty.GetAttrPath("input")},
			}},
			Outputs: []*plans.OutputChange{{Name: "o", Action: plans.Update, Before: bv, After: av, Sensitive: flags&8 != 0}},
		}
		for _, color := range []bool{false, true} {
			if err := Plan(io.Discard, p, schemas, Options{Color: color}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := PlanJSON(p, schemas, nil); err != nil {
			t.Fatal(err)
		}
		if !av.IsWhollyKnown() {
			return
		}
		s := states.NewState()
		src, err := (&states.Object{Value: obj(cty.StringVal("i"), av)}).Encode(builtinTerraformDataType(), 0)
		if err != nil {
			t.Fatal(err)
		}
		s.SetResourceInstanceCurrent(addr, src, prov)
		if err := State(io.Discard, s, schemas, Options{Color: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := StateJSON(s, schemas); err != nil {
			t.Fatal(err)
		}
	})
}

func builtinTerraformDataType() cty.Type {
	b, _ := builtinSchemas().ResourceTypeSchema(builtin.TerraformProviderAddr, addrs.ManagedResourceMode, "terraform_data")
	return b.ImpliedType()
}

// fuzzValue decodes JSON into a cty value, or reports that it is not JSON.
func fuzzValue(s string) (cty.Value, bool) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return cty.NilVal, false
	}
	return jsonToCty(v), true
}

// unknownLeaves replaces every string leaf with an unknown string.
func unknownLeaves(v cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if v.Type() == cty.String && v.IsKnown() && !v.IsMarked() {
			return cty.UnknownVal(cty.String), nil
		}
		return v, nil
	})
	return out
}
