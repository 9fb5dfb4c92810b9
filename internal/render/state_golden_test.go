package render

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// richState holds what the captured state did not: a tainted object, a
// deposed one, dependencies, schema-sensitive attributes, nested blocks,
// and outputs of typed collections.
func richState(t *testing.T) *states.State {
	t.Helper()
	s := states.NewState()
	prov := addrs.AbsProviderConfig{Provider: exampleProvider}
	put := func(addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *states.Object) {
		src, err := obj.Encode(thingSchema.ImpliedType(), 0)
		if err != nil {
			t.Fatal(err)
		}
		s.SetResourceInstanceDeposed(addr, key, src, prov)
	}
	put(thingAddr("a", addrs.NoKey), addrs.NotDeposed, &states.Object{Value: fullThing(str("t-1")), Status: states.ObjectReady})
	put(thingAddr("a", addrs.NoKey), "0badf00d", &states.Object{Value: thing(map[string]cty.Value{"id": str("t-0"), "name": str("old")}), Status: states.ObjectReady})
	put(thingAddr("b", addrs.IntKey(0)), addrs.NotDeposed, &states.Object{
		Value:        thing(map[string]cty.Value{"id": str("t-2"), "name": str("b")}),
		Status:       states.ObjectTainted,
		Dependencies: []addrs.AbsResource{thingAddr("a", addrs.NoKey).ContainingResource()},
	})
	s.Outputs["list"] = &states.OutputValue{Value: cty.ListVal(strs("a", "b"))}
	s.Outputs["map"] = &states.OutputValue{Value: cty.MapVal(map[string]cty.Value{"k": str("v")})}
	s.Outputs["secret"] = &states.OutputValue{Value: str("x"), Sensitive: true}
	return s
}

// TestStateGolden renders richState as text and JSON. Run with -update to
// rewrite the golden files.
func TestStateGolden(t *testing.T) {
	s := richState(t)
	schemas := exampleSchemas()
	for _, color := range []bool{false, true} {
		var got bytes.Buffer
		if err := State(&got, s, schemas, Options{Color: color}); err != nil {
			t.Fatal(err)
		}
		file := "state/show.txt"
		if color {
			file = "state/show.color.txt"
		}
		checkGolden(t, file, got.String())
	}
	doc, err := StateJSON(s, schemas)
	if err != nil {
		t.Fatal(err)
	}
	var back tfjson.State
	roundTrip(t, doc, &back)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "state/show.json", string(b)+"\n")
}
