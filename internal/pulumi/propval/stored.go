package propval

import (
	"encoding/json"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/internal/fieldname"
)

// StateJSON returns a stored object's properties (the outputs Pulumi kept)
// in Terraform's state form: a JSON object of attribute names, which a
// provider's UpgradeResourceState reads. The object may have been written
// with an older version of the schema than c.Block, so nothing is
// refused for not fitting it: a property an attribute of the block maps
// to is converted with that attribute's type (as ToCty would); any other
// property, an attribute the schema has since renamed or removed, is
// passed on as it was, named by fieldname.Snake, for the provider's
// upgrade to bring forward. Secrets come out as the paths of the
// attributes' values that were secret (state's sensitive paths); an
// unknown value is an error, since stored objects are known.
func (c Converter) StateJSON(pm resource.PropertyMap) ([]byte, []cty.Path, error) {
	d := decoder{refsAsURN: c.RefsAsURN}
	attrs := c.Block.ImpliedType().AttributeTypes()
	out := make(map[string]json.RawMessage, len(attrs))
	var secret []cty.Path
	for name, ty := range attrs {
		key := PropertyKey(name)
		pv, ok := pm[key]
		if !ok {
			out[name] = json.RawMessage("null")
			continue
		}
		raw, paths, err := typedJSON(d, pv, ty, resource.PropertyPath{string(key)})
		for _, p := range paths {
			secret = append(secret, append(cty.GetAttrPath(name), p...))
		}
		if err != nil {
			// The attribute had another type when the object was
			// stored: the provider's upgrade reads what was there.
			raw, err = plainJSON(pv, resource.PropertyPath{string(key)})
		}
		if err != nil {
			return nil, nil, err
		}
		out[name] = raw
	}
	for key, pv := range pm {
		name := fieldname.Snake(string(key))
		if _, known := attrs[name]; known || strings.HasPrefix(string(key), "__") {
			continue
		}
		raw, err := plainJSON(pv, resource.PropertyPath{string(key)})
		if err != nil {
			return nil, nil, err
		}
		out[name] = raw
	}
	b, err := json.Marshal(out)
	return b, secret, err
}

// typedJSON is a property value as the JSON of a value of type ty, and
// the paths within it of the values that were secret.
func typedJSON(d decoder, pv resource.PropertyValue, ty cty.Type, path resource.PropertyPath) (json.RawMessage, []cty.Path, error) {
	v, err := d.value(pv, ty, path)
	if err != nil {
		return nil, nil, err
	}
	u, pvm := v.UnmarkDeepWithPaths()
	if !u.IsWhollyKnown() {
		return nil, nil, errorf(path, "a stored object has an unknown value")
	}
	raw, err := ctyjson.Marshal(u, ty)
	if err != nil {
		return nil, nil, errorf(path, "%s", err)
	}
	paths := make([]cty.Path, len(pvm))
	for i, m := range pvm {
		paths[i] = m.Path
	}
	return raw, paths, nil
}

// plainJSON is a property value of no known type as JSON.
func plainJSON(pv resource.PropertyValue, path resource.PropertyPath) (json.RawMessage, error) {
	v, err := plain(pv, path)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, errorf(path, "%s", err)
	}
	return raw, nil
}

// plain is a property value of no known type as plain JSON data. Object
// keys that read as field names (logGroupName) are taken for attribute
// names of a nested object and named as Terraform names them; others
// (a map's keys: Env, team-name) are kept.
func plain(pv resource.PropertyValue, path resource.PropertyPath) (any, error) {
	for pv.IsSecret() {
		pv = pv.SecretValue().Element
	}
	switch {
	case pv.IsNull():
		return nil, nil
	case pv.IsComputed() || (pv.IsOutput() && !pv.OutputValue().Known):
		return nil, errorf(path, "a stored object has an unknown value")
	case pv.IsOutput():
		return plain(pv.OutputValue().Element, path)
	case pv.IsBool(), pv.IsNumber(), pv.IsString():
		return pv.V, nil
	case pv.IsArray():
		out := make([]any, len(pv.ArrayValue()))
		for i, e := range pv.ArrayValue() {
			v, err := plain(e, child(path, i))
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case pv.IsObject():
		out := make(map[string]any, len(pv.ObjectValue()))
		for k, e := range pv.ObjectValue() {
			v, err := plain(e, child(path, string(k)))
			if err != nil {
				return nil, err
			}
			out[plainKey(string(k))] = v
		}
		return out, nil
	}
	return nil, errorf(path, "unsupported %s in a stored object", kind(pv))
}

// plainKey names an object key of unknown type: a field name Camel could
// have made becomes its attribute name.
func plainKey(k string) string {
	if k == "" || k[0] < 'a' || k[0] > 'z' {
		return k
	}
	if s := fieldname.Snake(k); fieldname.Camel(s) == k {
		return s
	}
	return k
}
