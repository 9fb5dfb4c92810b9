package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// The captured Terraform plans only hold terraform_data, whose attributes
// are dynamically typed. These cases use a hand-made schema with every
// kind of attribute and nested block, so typed lists, sets, maps, nested
// attributes and blocks, and replacement forced from inside them, are
// covered too. Their golden files are Cairn's own (run with -update to
// rewrite them), written by following Terraform's rules.

var exampleProvider = addrs.NewDefaultProvider("example")

// thingSchema is the schema of example_thing.
var thingSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"id":          {Type: cty.String, Computed: true},
		"name":        {Type: cty.String, Required: true},
		"description": {Type: cty.String, Optional: true},
		"enabled":     {Type: cty.Bool, Optional: true},
		"tags":        {Type: cty.Map(cty.String), Optional: true},
		"labels":      {Type: cty.Set(cty.String), Optional: true},
		"ports":       {Type: cty.List(cty.Number), Optional: true},
		"password":    {Type: cty.String, Optional: true, Sensitive: true},
		"config":      {Type: cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number}), Optional: true},
		"endpoints": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
			"host": {Type: cty.String, Required: true},
			"port": {Type: cty.Number, Optional: true},
		}}},
		"settings": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{
			"mode":  {Type: cty.String, Optional: true},
			"level": {Type: cty.Number, Optional: true},
		}}},
		"rules": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: map[string]*configschema.Attribute{
			"cidr": {Type: cty.String, Required: true},
		}}},
		"meta": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingMap, Attributes: map[string]*configschema.Attribute{
			"v": {Type: cty.String, Optional: true},
		}}},
	},
	BlockTypes: map[string]*configschema.NestedBlock{
		"network": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"subnet": {Type: cty.String, Required: true},
			"ip":     {Type: cty.String, Computed: true},
		}}},
		"disk": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"size": {Type: cty.Number, Required: true},
			"type": {Type: cty.String, Optional: true},
		}}},
		"timeouts": {Nesting: configschema.NestingSingle, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"create": {Type: cty.String, Optional: true},
		}}},
		"volume": {Nesting: configschema.NestingMap, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"size": {Type: cty.Number, Optional: true},
		}}},
		"credential": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"user":  {Type: cty.String, Optional: true},
			"token": {Type: cty.String, Optional: true, Sensitive: true},
		}}},
	},
}

// lookupSchema is the schema of the example_lookup data source.
var lookupSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"query":  {Type: cty.String, Required: true},
		"result": {Type: cty.List(cty.String), Computed: true},
	},
}

func exampleSchemas() providers.Schemas {
	return providers.Schemas{exampleProvider: &providers.GetProviderSchemaResponse{
		ResourceTypes: map[string]providers.Schema{"example_thing": {Block: thingSchema}},
		DataSources:   map[string]providers.Schema{"example_lookup": {Block: lookupSchema}},
	}}
}

var (
	str  = cty.StringVal
	num  = cty.NumberIntVal
	strs = func(ss ...string) []cty.Value {
		out := make([]cty.Value, len(ss))
		for i, s := range ss {
			out[i] = cty.StringVal(s)
		}
		return out
	}
	obj = cty.ObjectVal
)

// thing returns an example_thing value: the base object with the given
// attributes replaced.
func thing(with map[string]cty.Value) cty.Value {
	ty := thingSchema.ImpliedType()
	attrs := map[string]cty.Value{}
	for name, aty := range ty.AttributeTypes() {
		attrs[name] = cty.NullVal(aty)
	}
	for _, name := range []string{"network", "credential"} {
		attrs[name] = cty.ListValEmpty(ty.AttributeType(name).ElementType())
	}
	attrs["disk"] = cty.SetValEmpty(ty.AttributeType("disk").ElementType())
	attrs["volume"] = cty.MapValEmpty(ty.AttributeType("volume").ElementType())
	for k, v := range with {
		attrs[k] = v
	}
	return cty.ObjectVal(attrs)
}

func network(subnet string, ip cty.Value) cty.Value {
	return obj(map[string]cty.Value{"subnet": str(subnet), "ip": ip})
}

func disk(size int64, typ string) cty.Value {
	return obj(map[string]cty.Value{"size": num(size), "type": str(typ)})
}

func endpoint(host string, port int64) cty.Value {
	return obj(map[string]cty.Value{"host": str(host), "port": num(port)})
}

func cred(user, token string) cty.Value {
	return obj(map[string]cty.Value{"user": str(user), "token": str(token)})
}

// fullThing is an example_thing with every attribute and block set.
func fullThing(id cty.Value) cty.Value {
	return thing(map[string]cty.Value{
		"id":          id,
		"name":        str("alpha"),
		"description": str("first line\nsecond line\n"),
		"enabled":     cty.True,
		"tags":        cty.MapVal(map[string]cty.Value{"env": str("prod"), "team": str("core"), "a b": str("spaced")}),
		"labels":      cty.SetVal(strs("x", "y")),
		"ports":       cty.ListVal([]cty.Value{num(80), num(443), num(8080), num(8443), num(9000)}),
		"password":    str("s3cret"),
		"config":      obj(map[string]cty.Value{"a": str("A"), "b": num(1)}),
		"endpoints":   cty.ListVal([]cty.Value{endpoint("one", 1), endpoint("two", 2)}),
		"settings":    obj(map[string]cty.Value{"mode": str("fast"), "level": num(3)}),
		"rules":       cty.SetVal([]cty.Value{obj(map[string]cty.Value{"cidr": str("10.0.0.0/8")}), obj(map[string]cty.Value{"cidr": str("192.168.0.0/16")})}),
		"meta":        cty.MapVal(map[string]cty.Value{"k1": obj(map[string]cty.Value{"v": str("one")})}),
		"network":     cty.ListVal([]cty.Value{network("a", str("10.0.0.1")), network("b", str("10.0.0.2"))}),
		"disk":        cty.SetVal([]cty.Value{disk(10, "ssd"), disk(20, "hdd")}),
		"timeouts":    obj(map[string]cty.Value{"create": str("5m")}),
		"volume":      cty.MapVal(map[string]cty.Value{"data": obj(map[string]cty.Value{"size": num(100)})}),
		"credential":  cty.ListVal([]cty.Value{cred("admin", "tok")}),
	})
}

// updatedThing changes something in every attribute and block of
// fullThing.
func updatedThing(id cty.Value) cty.Value {
	return thing(map[string]cty.Value{
		"id":          id,
		"name":        str("alpha"),
		"description": str("first line\nchanged line\n"),
		"enabled":     cty.False,
		"tags":        cty.MapVal(map[string]cty.Value{"env": str("staging"), "team": str("core"), "owner": str("me")}),
		"labels":      cty.SetVal(strs("x", "z")),
		"ports":       cty.ListVal([]cty.Value{num(80), num(443), num(8081), num(8443), num(9000)}),
		"password":    str("n3w"),
		"config":      obj(map[string]cty.Value{"a": str("A"), "b": num(2)}),
		"endpoints":   cty.ListVal([]cty.Value{endpoint("one", 1), endpoint("two", 22), endpoint("three", 3)}),
		"settings":    obj(map[string]cty.Value{"mode": str("slow"), "level": num(3)}),
		"rules":       cty.SetVal([]cty.Value{obj(map[string]cty.Value{"cidr": str("10.0.0.0/8")}), obj(map[string]cty.Value{"cidr": str("172.16.0.0/12")})}),
		"meta":        cty.MapVal(map[string]cty.Value{"k1": obj(map[string]cty.Value{"v": str("uno")}), "k2": obj(map[string]cty.Value{"v": str("two")})}),
		"network":     cty.ListVal([]cty.Value{network("a", str("10.0.0.1")), network("c", cty.UnknownVal(cty.String))}),
		"disk":        cty.SetVal([]cty.Value{disk(10, "ssd"), disk(30, "hdd")}),
		"timeouts":    obj(map[string]cty.Value{"create": str("10m")}),
		"volume":      cty.MapVal(map[string]cty.Value{"logs": obj(map[string]cty.Value{"size": num(5)})}),
		"credential":  cty.ListVal([]cty.Value{cred("admin", "tok2")}),
	})
}

func thingAddr(name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "example_thing", Name: name}.Absolute(addrs.RootModuleInstance).Instance(key)
}

func thingChange(name string, act plans.Action, before, after cty.Value) *plans.ResourceInstanceChange {
	return &plans.ResourceInstanceChange{
		Addr: thingAddr(name, addrs.NoKey), Provider: addrs.AbsProviderConfig{Provider: exampleProvider},
		Action: act, Before: before, After: after,
	}
}

var nullThing = cty.NullVal(thingSchema.ImpliedType())

// exampleState returns a state holding objects of example_thing.
func exampleState(t *testing.T, objs map[string]cty.Value) *states.State {
	t.Helper()
	s := states.NewState()
	for name, v := range objs {
		src, err := (&states.Object{Value: v, Status: states.ObjectReady}).Encode(thingSchema.ImpliedType(), 0)
		if err != nil {
			t.Fatal(err)
		}
		s.SetResourceInstanceCurrent(thingAddr(name, addrs.NoKey), src, addrs.AbsProviderConfig{Provider: exampleProvider})
	}
	return s
}

// checkGolden compares got with testdata/path, or rewrites the file with
// -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	full := filepath.Join("testdata", path)
	if *update {
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(readGolden(t, path), got); diff != "" {
		t.Errorf("differs from %s (-want +got):\n%s", path, diff)
	}
}

// goldenPlan is one hand-made plan with golden renderings.
type goldenPlan struct {
	reason string
	plan   func(t *testing.T) *plans.Plan
}

func goldenPlans() map[string]goldenPlan {
	known := str("t-1")
	unknownID := cty.UnknownVal(cty.String)
	return map[string]goldenPlan{
		"typed_create": {
			reason: "typed collections, nested attributes and every nesting of blocks, created",
			plan: func(*testing.T) *plans.Plan {
				return &plans.Plan{Changes: []*plans.ResourceInstanceChange{thingChange("a", plans.Create, nullThing, fullThing(unknownID))}}
			},
		},
		"typed_update": {
			reason: "an edit in every attribute and block: map, set and list edits, nested attributes, blocks by nesting, a schema-sensitive attribute",
			plan: func(*testing.T) *plans.Plan {
				return &plans.Plan{Changes: []*plans.ResourceInstanceChange{thingChange("a", plans.Update, fullThing(known), updatedThing(known))}}
			},
		},
		"typed_replace": {
			reason: "replacement forced from inside a list block, a set block, a map and a nested set",
			plan: func(*testing.T) *plans.Plan {
				c := thingChange("a", plans.DeleteThenCreate, fullThing(known), updatedThing(unknownID))
				c.ActionReason = plans.ReasonReplaceBecauseCannotUpdate
				c.RequiredReplace = []cty.Path{
					cty.GetAttrPath("network").IndexInt(1).GetAttr("subnet"),
					cty.GetAttrPath("disk"),
					cty.GetAttrPath("tags"),
					cty.GetAttrPath("rules"),
					cty.GetAttrPath("meta"),
					cty.GetAttrPath("name"),
				}
				return &plans.Plan{Changes: []*plans.ResourceInstanceChange{c}}
			},
		},
		"typed_destroy": {
			plan: func(*testing.T) *plans.Plan {
				c := thingChange("a", plans.Delete, fullThing(known), nullThing)
				return &plans.Plan{Mode: plans.DestroyMode, Changes: []*plans.ResourceInstanceChange{c}}
			},
		},
		"unknown_collections": {
			reason: "whole collections, nested objects and blocks becoming unknown",
			plan: func(*testing.T) *plans.Plan {
				after := fullThing(known).AsValueMap()
				for _, name := range []string{"tags", "labels", "settings", "endpoints", "network", "timeouts", "config"} {
					after[name] = cty.UnknownVal(after[name].Type())
				}
				return &plans.Plan{Changes: []*plans.ResourceInstanceChange{thingChange("a", plans.Update, fullThing(known), obj(after))}}
			},
		},
		"sensitive_blocks": {
			reason: "a block and a nested attribute whose whole value is sensitive, and values becoming sensitive",
			plan: func(*testing.T) *plans.Plan {
				before := fullThing(known).AsValueMap()
				after := fullThing(known).AsValueMap()
				after["timeouts"] = after["timeouts"].Mark(configschema.SensitiveMark)
				after["settings"] = after["settings"].Mark(configschema.SensitiveMark)
				after["config"] = obj(map[string]cty.Value{"a": str("A").Mark(configschema.SensitiveMark), "b": num(5)})
				before["tags"] = before["tags"].Mark(configschema.SensitiveMark)
				return &plans.Plan{Changes: []*plans.ResourceInstanceChange{thingChange("a", plans.Update, obj(before), obj(after))}}
			},
		},
		"reasons": {
			reason: "every reason Terraform gives for a delete, a replace or a read, deposed objects, instance keys",
			plan: func(*testing.T) *plans.Plan {
				small := thing(map[string]cty.Value{"id": known, "name": str("n")})
				newSmall := thing(map[string]cty.Value{"id": unknownID, "name": str("n")})
				var cs []*plans.ResourceInstanceChange
				add := func(name string, key addrs.InstanceKey, act plans.Action, reason plans.ActionReason, before, after cty.Value) *plans.ResourceInstanceChange {
					c := thingChange(name, act, before, after)
					c.Addr = thingAddr(name, key)
					c.ActionReason = reason
					cs = append(cs, c)
					return c
				}
				add("gone", addrs.NoKey, plans.Delete, plans.ReasonDeleteBecauseNoResourceConfig, small, nullThing)
				add("count", addrs.IntKey(3), plans.Delete, plans.ReasonDeleteBecauseCountIndex, small, nullThing)
				add("each", addrs.StringKey("x y"), plans.Delete, plans.ReasonDeleteBecauseEachKey, small, nullThing)
				add("was_single", addrs.IntKey(0), plans.Delete, plans.ReasonDeleteBecauseWrongRepetition, small, nullThing)
				add("was_count", addrs.NoKey, plans.Delete, plans.ReasonDeleteBecauseWrongRepetition, small, nullThing)
				add("was_each", addrs.StringKey("k"), plans.Delete, plans.ReasonDeleteBecauseWrongRepetition, small, nullThing)
				add("tainted", addrs.NoKey, plans.DeleteThenCreate, plans.ReasonReplaceBecauseTainted, small, newSmall)
				add("requested", addrs.NoKey, plans.CreateThenDelete, plans.ReasonReplaceByRequest, small, newSmall)
				add("triggered", addrs.NoKey, plans.DeleteThenCreate, plans.ReasonReplaceByTriggers, small, newSmall)
				d := add("old", addrs.NoKey, plans.Delete, plans.ReasonNone, small, nullThing)
				d.DeposedKey = "00000001"
				lookup := addrs.Resource{Mode: addrs.DataResourceMode, Type: "example_lookup", Name: "q"}.Absolute(addrs.RootModuleInstance)
				for i, r := range []plans.ActionReason{plans.ReasonReadBecauseConfigUnknown, plans.ReasonReadBecauseDependencyPending} {
					cs = append(cs, &plans.ResourceInstanceChange{
						Addr: lookup.Instance(addrs.IntKey(i)), Provider: addrs.AbsProviderConfig{Provider: exampleProvider},
						Action: plans.Read, ActionReason: r,
						Before: cty.NullVal(lookupSchema.ImpliedType()),
						After:  obj(map[string]cty.Value{"query": str("q"), "result": cty.UnknownVal(cty.List(cty.String))}),
					})
				}
				// Forgetting a data resource is not shown.
				cs = append(cs, &plans.ResourceInstanceChange{
					Addr: lookup.Instance(addrs.IntKey(9)), Provider: addrs.AbsProviderConfig{Provider: exampleProvider},
					Action: plans.Delete, Before: obj(map[string]cty.Value{"query": str("q"), "result": cty.ListValEmpty(cty.String)}),
					After: cty.NullVal(lookupSchema.ImpliedType()),
				})
				p := &plans.Plan{Changes: cs}
				p.SortChanges()
				return p
			},
		},
		"drift": {
			reason: "objects changed and deleted outside of Terraform, then an update",
			plan: func(t *testing.T) *plans.Plan {
				small := func(desc string) cty.Value {
					return thing(map[string]cty.Value{"id": known, "name": str("n"), "description": str(desc)})
				}
				prev := exampleState(t, map[string]cty.Value{"a": small("old"), "b": small("kept"), "c": small("same")})
				prior := exampleState(t, map[string]cty.Value{"a": small("changed outside"), "c": small("same")})
				return &plans.Plan{
					PrevRunState: prev, PriorState: prior,
					Changes: []*plans.ResourceInstanceChange{thingChange("a", plans.Update, small("changed outside"), small("old"))},
				}
			},
		},
		"drift_refresh_only": {
			plan: func(t *testing.T) *plans.Plan {
				small := func(desc string) cty.Value {
					return thing(map[string]cty.Value{"id": known, "name": str("n"), "description": str(desc)})
				}
				return &plans.Plan{
					Mode:         plans.RefreshOnlyMode,
					PrevRunState: exampleState(t, map[string]cty.Value{"a": small("old")}),
					PriorState:   exampleState(t, map[string]cty.Value{"a": small("new")}),
				}
			},
		},
		"errored": {
			plan: func(*testing.T) *plans.Plan {
				return &plans.Plan{Errored: true, Changes: []*plans.ResourceInstanceChange{thingChange("a", plans.Create, nullThing, thing(map[string]cty.Value{"id": unknownID, "name": str("n")}))}}
			},
		},
		"errored_empty": {
			plan: func(*testing.T) *plans.Plan { return &plans.Plan{Errored: true} },
		},
		"refresh_only_nothing": {
			plan: func(*testing.T) *plans.Plan { return &plans.Plan{Mode: plans.RefreshOnlyMode} },
		},
		"outputs": {
			reason: "outputs of every kind: typed collections, sensitive, unknown, removed, becoming null",
			plan: func(*testing.T) *plans.Plan {
				o := func(name string, act plans.Action, before, after cty.Value, sens bool) *plans.OutputChange {
					return &plans.OutputChange{Name: name, Action: act, Before: before, After: after, Sensitive: sens}
				}
				dyn := cty.NullVal(cty.DynamicPseudoType)
				return &plans.Plan{Outputs: []*plans.OutputChange{
					o("a_list", plans.Update, cty.ListVal(strs("a", "b")), cty.ListVal(strs("a", "c")), false),
					o("a_map", plans.Create, dyn, cty.MapVal(map[string]cty.Value{"k": str("v")}), false),
					o("secret", plans.Update, str("x"), str("y"), true),
					o("secret_new", plans.Create, dyn, str("y"), true),
					o("later", plans.Update, str("x"), cty.UnknownVal(cty.String), false),
					o("gone", plans.Delete, str("x"), dyn, false),
					o("to_null", plans.Update, str("x"), cty.NullVal(cty.String), false),
					o("same", plans.NoOp, str("x"), str("x"), false),
					o("a_very_long_output_name", plans.NoOp, num(1), num(1), false),
				}}
			},
		},
	}
}

func TestPlanGolden(t *testing.T) {
	schemas := exampleSchemas()
	for name, tc := range goldenPlans() {
		t.Run(name, func(t *testing.T) {
			p := tc.plan(t)
			p.Timestamp = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
			for _, color := range []bool{false, true} {
				var got bytes.Buffer
				if err := Plan(&got, p, schemas, Options{Color: color}); err != nil {
					t.Fatal(err)
				}
				file := "plan/" + name + ".txt"
				if color {
					file = "plan/" + name + ".color.txt"
				}
				checkGolden(t, file, got.String())
			}
		})
	}
}
