package server

import (
	"encoding/json"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/fieldname"
	"github.com/cairn-iac/cairn/internal/pulumi/propval"
	"github.com/cairn-iac/cairn/internal/pulumi/propwire"
	"github.com/cairn-iac/cairn/internal/states"
)

// metaKey is the output property that keeps what Terraform stores beside
// a state object: its schema version and the provider's private data.
// Keys beginning "__" are Pulumi's convention for metadata no program
// sees; bridged providers use the same key.
const metaKey = "__meta"

// meta is the JSON document under metaKey.
type meta struct {
	SchemaVersion int64  `json:"schema_version"`
	Private       []byte `json:"private,omitempty"`
}

// unmarshal reads properties the engine sent: unknowns, secrets and
// resource references kept as such.
func unmarshal(st *structpb.Struct) (resource.PropertyMap, error) {
	return propwire.Unmarshal(st)
}

func marshal(pm resource.PropertyMap) (*structpb.Struct, error) {
	return propwire.Marshal(pm)
}

// inputs converts a resource's inputs to a configuration value of block.
func inputs(block *configschema.Block, st *structpb.Struct) (cty.Value, error) {
	pm, err := unmarshal(st)
	if err != nil {
		return cty.NilVal, err
	}
	return propval.Converter{Block: block}.ToCty(pm)
}

// storedSrc reads a stored object back from the outputs Pulumi kept, in
// state's form: its attributes as JSON (propval.StateJSON), with the
// schema version and private data stored beside them, ready for
// lifecycle.ReadStored, since the provider's schema may have moved on
// since the object was written. Outputs with no properties at all are no
// object (nil).
func storedSrc(block *configschema.Block, st *structpb.Struct) (*states.ObjectSrc, error) {
	pm, err := unmarshal(st)
	if err != nil {
		return nil, err
	}
	var m meta
	if raw, ok := pm[metaKey]; ok {
		if !raw.IsString() {
			return nil, fmt.Errorf("%s: want a string", metaKey)
		}
		if err := json.Unmarshal([]byte(raw.StringValue()), &m); err != nil {
			return nil, fmt.Errorf("%s: %w", metaKey, err)
		}
	}
	if len(pm.StableKeys()) == 0 || (len(pm) == 1 && pm.HasValue(metaKey)) {
		return nil, nil
	}
	attrs, secret, err := propval.Converter{Block: block}.StateJSON(pm)
	if err != nil {
		return nil, err
	}
	return &states.ObjectSrc{
		AttrsJSON: attrs, AttrSensitivePaths: secret, SchemaVersion: uint64(m.SchemaVersion),
		Private: m.Private, Status: states.ObjectReady,
	}, nil
}

// outputs encodes an object as the outputs Pulumi keeps: every attribute,
// sensitive ones (and those derived from secret inputs, see
// propval.CarrySecrets) as secrets, and the metadata.
func outputs(block *configschema.Block, v, config cty.Value, m meta) (*structpb.Struct, error) {
	if config != cty.NilVal && !config.IsNull() {
		v = propval.CarrySecrets(v, config)
	}
	pm, err := propval.Converter{Block: block}.FromCty(v)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	pm[metaKey] = resource.NewStringProperty(string(raw))
	return marshal(pm)
}

// encode converts a value of block to the properties Pulumi receives
// (inputs, a function's result): no metadata.
func encode(block *configschema.Block, v cty.Value) (*structpb.Struct, error) {
	pm, err := propval.Converter{Block: block}.FromCty(v)
	if err != nil {
		return nil, err
	}
	return marshal(pm)
}

// resourceID is the ID of an object: its id attribute.
func resourceID(v cty.Value) (string, bool) {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return "", false
	}
	id, _ := v.GetAttr("id").Unmark()
	if id.IsNull() || !id.IsKnown() || id.Type() != cty.String {
		return "", false
	}
	return id.AsString(), true
}

// settable keeps of an object what a configuration could have set: the
// inputs an imported resource is given, so that a program written from
// them plans no change. Computed-only attributes are dropped; optional
// computed ones are kept, since they were either set or defaulted.
func settable(block *configschema.Block, v cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	attrs := map[string]cty.Value{}
	for name, a := range block.Attributes {
		av := v.GetAttr(name)
		if a.Computed && !a.Optional && !a.Required {
			av = cty.NullVal(av.Type())
		}
		attrs[name] = av
	}
	for name := range block.BlockTypes {
		attrs[name] = v.GetAttr(name)
	}
	if len(attrs) == 0 {
		return cty.EmptyObjectVal
	}
	return cty.ObjectVal(attrs)
}

// propertyPath spells a value path as a Pulumi property path:
// rules[0].fromPort.
func propertyPath(p cty.Path) string {
	var pp resource.PropertyPath
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			pp = append(pp, fieldname.Camel(s.Name))
		case cty.IndexStep:
			k, _ := s.Key.Unmark()
			switch {
			case !k.IsKnown() || k.IsNull():
				return pp.String()
			case k.Type() == cty.Number:
				i, _ := k.AsBigFloat().Int64()
				pp = append(pp, int(i))
			case k.Type() == cty.String:
				pp = append(pp, k.AsString())
			default:
				// A set element has no address: the path stops at
				// the set.
				return pp.String()
			}
		}
	}
	return pp.String()
}
