package render

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	tfjson "github.com/hashicorp/terraform-json"
)

// TerraformVersion is the Terraform version Cairn's documents claim to
// come from: the version whose formats and behaviour Cairn reproduces, so
// tools that check it accept Cairn's output.
const TerraformVersion = "1.5.7"

const (
	stateFormatVersion = "1.0"
	planFormatVersion  = "1.2"
)

// StateJSON returns a state as `terraform show -json` describes it: root
// outputs with their values and types, and every resource instance object
// (current and deposed) with its attribute values, a mask of its sensitive
// values, dependencies, taint and deposed key. Values are included as they
// are, sensitive ones too, as in Terraform; the masks say which to hide.
//
// An empty (or nil) state gives only the format version, as in Terraform.
// A missing schema, an object stored under another schema version than the
// provider's, or an object that does not decode is an internal error.
func StateJSON(s *states.State, schemas providers.Schemas) (*tfjson.State, error) {
	out := &tfjson.State{FormatVersion: stateFormatVersion}
	if s.Empty() {
		return out, nil
	}
	out.TerraformVersion = TerraformVersion
	outputs, err := stateOutputsJSON(s.Outputs)
	if err != nil {
		return nil, err
	}
	modules, err := stateResourcesJSON(s, schemas)
	if err != nil {
		return nil, err
	}
	out.Values = &tfjson.StateValues{Outputs: outputs, RootModule: modules.root()}
	return out, nil
}

func stateOutputsJSON(outputs map[string]*states.OutputValue) (map[string]*tfjson.StateOutput, error) {
	if len(outputs) == 0 {
		return nil, nil
	}
	out := make(map[string]*tfjson.StateOutput, len(outputs))
	for name, o := range outputs {
		v := unmarkDeep(o.Value)
		g, err := generic(v)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		out[name] = &tfjson.StateOutput{Sensitive: o.Sensitive, Value: orJSONNull(g), Type: v.Type()}
	}
	return out, nil
}

func stateResourcesJSON(s *states.State, schemas providers.Schemas) (*moduleValues, error) {
	out := newModuleValues()
	var err error
	s.AllInstances(func(addr addrs.AbsResourceInstance, rs *states.Resource, is *states.ResourceInstance) {
		if err != nil {
			return
		}
		keys := append([]addrs.DeposedKey{addrs.NotDeposed}, is.SortedDeposedKeys()...)
		for _, key := range keys {
			src := objectOf(is, key)
			if src == nil {
				continue
			}
			var r *tfjson.StateResource
			if r, err = stateResourceJSON(addr, key, rs.ProviderConfig, src, schemas); err != nil {
				return
			}
			out.add(addr.Module, r)
		}
	})
	return out, err
}

// stateResourceJSON describes one stored object.
func stateResourceJSON(addr addrs.AbsResourceInstance, key addrs.DeposedKey, provider addrs.AbsProviderConfig, src *states.ObjectSrc, schemas providers.Schemas) (*tfjson.StateResource, error) {
	schema, version, err := resourceSchema(schemas, provider.Provider, addr)
	if err != nil {
		return nil, err
	}
	if src.SchemaVersion != uint64(version) {
		return nil, fmt.Errorf("schema version %d for %s in state does not match version %d from the provider", src.SchemaVersion, addr, version)
	}
	obj, err := src.Decode(schema.ImpliedType())
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", addr, err)
	}
	r := resourceHead(addr, provider)
	r.SchemaVersion = src.SchemaVersion
	if r.AttributeValues, err = attributeValues(unmarkDeep(obj.Value)); err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	r.SensitiveValues = maskJSON(sensitiveMask(withSchemaMarks(obj.Value, schema)))
	for _, d := range obj.Dependencies {
		r.DependsOn = append(r.DependsOn, d.String())
	}
	r.Tainted = obj.Status == states.ObjectTainted
	r.DeposedKey = string(key)
	if err := identityJSON(r, src.Identity); err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return r, nil
}

// identityJSON adds an object's resource identity, as Terraform 1.12's
// JSON state gives it ("identity_schema_version", then "identity").
func identityJSON(r *tfjson.StateResource, id states.Identity) error {
	if id.IsNone() {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(id.JSON))
	dec.UseNumber()
	if err := dec.Decode(&r.IdentityValues); err != nil {
		return fmt.Errorf("stored identity: %w", err)
	}
	v := id.SchemaVersion
	r.IdentitySchemaVersion = &v
	return nil
}

// resourceHead fills in what every description of an instance starts with.
func resourceHead(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig) *tfjson.StateResource {
	res := addr.Resource.Resource
	return &tfjson.StateResource{
		Address:      addr.String(),
		Mode:         jsonMode(res.Mode),
		Type:         res.Type,
		Name:         res.Name,
		Index:        keyValue(addr.Resource.Key),
		ProviderName: provider.Provider.String(),
	}
}

func jsonMode(m addrs.ResourceMode) tfjson.ResourceMode {
	if m == addrs.DataResourceMode {
		return tfjson.DataResourceMode
	}
	return tfjson.ManagedResourceMode
}

// keyValue returns an instance key as the JSON documents give it: a
// number, a string, or nil for no key.
func keyValue(k addrs.InstanceKey) any {
	switch k := k.(type) {
	case addrs.IntKey:
		return int(k)
	case addrs.StringKey:
		return string(k)
	}
	return nil
}
