package statefile_test

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// cmpOpts compares states: cty values and paths by RawEquals, so that types
// and marks count, everything else structurally.
var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
}

var (
	builtinProvider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	awsWest         = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws"), Alias: "west"}
)

func managed(typ, name string) addrs.AbsResource {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}.Absolute(addrs.RootModuleInstance)
}

// sampleState holds one of every kind of entry the format can carry,
// including those a plain terraform_data apply never produces: private
// data, a data resource, an aliased provider in a child module, deposed
// objects and unsorted dependencies.
func sampleState() *states.State {
	s := states.NewState()
	obj := func(attrs string) *states.ObjectSrc {
		return &states.ObjectSrc{AttrsJSON: []byte(attrs), Status: states.ObjectReady}
	}
	s.SetResourceInstanceCurrent(managed("terraform_data", "a").Instance(addrs.NoKey), &states.ObjectSrc{
		SchemaVersion: 0,
		AttrsJSON:     []byte(`{"id":"a","input":{"value":{"k":["x","y"]},"type":["object",{"k":["list","string"]}]},"output":null,"triggers_replace":null}`),
		AttrSensitivePaths: []cty.Path{
			cty.GetAttrPath("input").GetAttr("k").IndexInt(1),
			cty.GetAttrPath("input").Index(cty.StringVal("k")),
		},
		Private:             []byte(`{"schema_version":"1"}`),
		Status:              states.ObjectTainted,
		Dependencies:        []addrs.AbsResource{managed("terraform_data", "z"), managed("terraform_data", "b")},
		CreateBeforeDestroy: true,
	}, builtinProvider)
	s.SetResourceInstanceDeposed(managed("terraform_data", "a").Instance(addrs.NoKey), "0badf00d", obj(`{"id":"old"}`), builtinProvider)
	s.SetResourceInstanceDeposed(managed("terraform_data", "a").Instance(addrs.NoKey), "00000001", obj(`{"id":"older"}`), builtinProvider)
	for i := range 11 {
		s.SetResourceInstanceCurrent(managed("aws_instance", "web").Instance(addrs.IntKey(i)), obj(fmt.Sprintf(`{"id":"i-%d","tags":{"<n>":"&"}}`, i)), awsWest)
	}
	for _, k := range []string{"b", "a", "B", "${x}"} {
		s.SetResourceInstanceCurrent(managed("terraform_data", "each").Instance(addrs.StringKey(k)), obj(`{"id":"`+k+`"}`), builtinProvider)
	}
	data := addrs.Resource{Mode: addrs.DataResourceMode, Type: "terraform_remote_state", Name: "o"}.Absolute(addrs.RootModuleInstance)
	s.SetResourceInstanceCurrent(data.Instance(addrs.NoKey), obj(`{"backend":"local"}`), builtinProvider)
	mod := addrs.ModuleInstance{{Name: "net", Key: addrs.StringKey("eu")}, {Name: "sub"}}
	modRes := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_vpc", Name: "main"}.Absolute(mod)
	modProvider := addrs.AbsProviderConfig{Module: mod.Module(), Provider: addrs.NewDefaultProvider("aws")}
	s.SetResourceInstanceCurrent(modRes.Instance(addrs.NoKey), obj(`{"id":"vpc-1"}`), modProvider)

	s.Outputs["str"] = &states.OutputValue{Value: cty.StringVal("<s>")}
	s.Outputs["secret"] = &states.OutputValue{Value: cty.StringVal("hunter2"), Sensitive: true}
	s.Outputs["obj"] = &states.OutputValue{Value: cty.ObjectVal(map[string]cty.Value{
		"n": cty.NumberFloatVal(1.5),
		"l": cty.ListVal([]cty.Value{cty.True}),
		"m": cty.MapValEmpty(cty.String),
		"z": cty.NullVal(cty.DynamicPseudoType),
	})}
	return s
}
