package states

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// SchemaFunc returns the schema of the objects of resource r, managed by
// provider, or nil when it is not known.
type SchemaFunc func(provider addrs.Provider, r addrs.Resource) *configschema.Block

// Secrets returns the secrets of everything s holds (marks.Secrets): the
// sensitive parts of every object, current and deposed (the marks it
// recorded and the attributes its schema declares secret), and the values
// of sensitive outputs. Each is a secret of the whole run, not only of its
// object: a provider's unmarked copy of one (an id built from a sensitive
// name) travels into other objects, and is recognised there by its text.
//
// Objects whose schema is unknown, or that no longer decode with it, are
// passed over: they cannot be shown either. Only objects that recorded
// marks or whose schema declares a secret are decoded, so a large state
// without secrets costs a look at each object's marks.
func (s *State) Secrets(schemaOf SchemaFunc) marks.Secrets {
	var out marks.Secrets
	if s == nil {
		return out
	}
	s.AllInstances(func(addr addrs.AbsResourceInstance, rs *Resource, is *ResourceInstance) {
		schema := schemaOf(rs.ProviderConfig.Provider, addr.Resource.Resource)
		if schema == nil {
			return
		}
		objs := []*ObjectSrc{is.Current}
		for _, o := range is.Deposed {
			objs = append(objs, o)
		}
		for _, src := range objs {
			if src == nil || (len(src.AttrSensitivePaths) == 0 && !schema.HasSecret()) {
				continue
			}
			if obj, err := src.Decode(schema.ImpliedType()); err == nil {
				out.Merge(schema.Secrets(obj.Value))
			}
		}
	})
	for _, o := range s.Outputs {
		if o.Sensitive && o.Value != cty.NilVal {
			out.Merge(marks.SecretsOf(o.Value.Mark(marks.Sensitive)))
		}
	}
	return out
}
