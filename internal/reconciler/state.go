package reconciler

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/crds"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/states"
)

// AnnotationPrivate holds the provider's private state for the object
// (base64), the one part of the state that spec and status cannot hold.
const AnnotationPrivate = "cairn-iac.io/private"

func setPrivate(m *Managed, private []byte) {
	if len(private) == 0 {
		meta.RemoveAnnotations(m, AnnotationPrivate)
		return
	}
	meta.AddAnnotations(m, map[string]string{AnnotationPrivate: base64.StdEncoding.EncodeToString(private)})
}

func getPrivate(m *Managed) ([]byte, error) {
	s := m.GetAnnotations()[AnnotationPrivate]
	if s == "" {
		return nil, nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("annotation %s is not base64: %w", AnnotationPrivate, err)
	}
	return b, nil
}

// prior returns the state to refresh: the workspace's, else one rebuilt
// from the object — status.atProvider with the id the external name
// implies and the private state of the annotation — else (nothing was
// ever observed: an imported resource, or a restarted controller that
// never wrote status) the object the provider imports for that id. nil
// means the provider knows no such object.
func (e *external) prior(ctx context.Context, m *Managed, name string) (*states.Object, error) {
	if st := e.ws.State(); st != nil {
		if got, err := e.kind.ExternalName.fromState(st.Value); err == nil && got == name {
			return st, nil
		}
	}
	private, err := getPrivate(m)
	if err != nil {
		return nil, err
	}
	id, err := e.kind.ExternalName.id(name, cty.NilVal)
	if err != nil {
		return nil, fmt.Errorf("the id of external name %q: %w", name, err)
	}
	if at := m.atProvider(); len(at) > 0 {
		v, err := crds.DecodeObservation(e.kind.Schema.Block, at)
		if err != nil {
			return nil, fmt.Errorf("status.atProvider: %w", err)
		}
		v = withSensitiveInputs(e.kind.Schema.Block, v, e.desiredOrNil(ctx, m))
		return &states.Object{Value: withID(v, id), Private: private, Status: states.ObjectReady}, nil
	}
	obj, ds := lifecycle.Import(ctx, e.t, id)
	if ds.HasErrors() {
		return nil, ds.Err()
	}
	if obj == nil {
		return nil, nil
	}
	obj.Private = private
	return obj, nil
}

// withID sets the id attribute of a state value.
func withID(v cty.Value, id string) cty.Value {
	if v.IsNull() || !v.Type().HasAttribute("id") {
		return v
	}
	vals := v.AsValueMap()
	vals["id"] = cty.StringVal(id)
	return cty.ObjectVal(vals)
}

// observe writes status.atProvider from a state value and returns the
// connection details (its sensitive attributes).
func (e *external) observe(m *Managed, state cty.Value) (map[string][]byte, error) {
	at, conn := crds.EncodeObservation(e.kind.Schema.Block, state)
	if err := m.paved().SetValue("status.atProvider", at); err != nil {
		return nil, fmt.Errorf("writing status.atProvider: %w", err)
	}
	return conn, nil
}

// atProvider returns status.atProvider, or nil.
func (m *Managed) atProvider() map[string]any {
	at, _, _ := unstructuredMap(m.Object, "status", "atProvider")
	return at
}

// desiredOrNil is the desired configuration, or cty.NilVal when spec
// cannot be read (the observation reports that later).
func (e *external) desiredOrNil(ctx context.Context, m *Managed) cty.Value {
	v, err := e.desired(ctx, m, cty.NilVal)
	if err != nil {
		return cty.NilVal
	}
	return v
}

// withSensitiveInputs fills the sensitive arguments of a state rebuilt
// from status (which never holds them) from the desired configuration:
// the state a controller kept before a restart had the values spec gave.
func withSensitiveInputs(b *configschema.Block, state, config cty.Value) cty.Value {
	if config == cty.NilVal || config.IsNull() || state.IsNull() {
		return state
	}
	vals := state.AsValueMap()
	changed := false
	for name, a := range b.Attributes {
		if a.Secret() && (a.Required || a.Optional) && vals[name].IsNull() {
			vals[name] = config.GetAttr(name)
			changed = true
		}
	}
	if !changed {
		return state
	}
	return cty.ObjectVal(vals)
}
