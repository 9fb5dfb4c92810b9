package reconciler

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// ExternalName says how a kind's crossplane.io/external-name annotation
// relates to the provider's state, in the three forms upjet offers:
// the name is the identifier and an argument carries it
// (NameAsIdentifier), the provider makes up the identifier
// (IdentifierFromProvider), or functions the kind supplies.
type ExternalName struct {
	// FromName makes the external name default to metadata.name, set
	// before the first create, so the object's identity is known before
	// anything exists (and a restarted controller finds what it created).
	FromName bool
	// IDFromExternalName returns the state's id for an external name and
	// the desired configuration; the external name itself when nil.
	IDFromExternalName func(externalName string, config cty.Value) (string, error)
	// ExternalNameFromState returns the external name of a state value;
	// its id when nil.
	ExternalNameFromState func(state cty.Value) (string, error)
	// SetIdentifierArgument writes the external name into the desired
	// configuration (NameAsIdentifier's argument); nothing when nil.
	SetIdentifierArgument func(config cty.Value, externalName string) cty.Value
}

// NameAsIdentifier is for a kind whose identifier is the configurable
// attribute attr: the external name defaults to metadata.name, is
// written into attr unless spec sets it, and is the id.
func NameAsIdentifier(attr string) ExternalName {
	return ExternalName{
		FromName: true,
		SetIdentifierArgument: func(config cty.Value, name string) cty.Value {
			return setIfNull(config, attr, cty.StringVal(name))
		},
	}
}

// IdentifierFromProvider is for a kind whose identifier the provider
// assigns on create: the external name is empty until then, and the id
// afterwards.
func IdentifierFromProvider() ExternalName { return ExternalName{} }

// id returns the state id for an external name.
func (e ExternalName) id(name string, config cty.Value) (string, error) {
	if e.IDFromExternalName == nil {
		return name, nil
	}
	return e.IDFromExternalName(name, config)
}

// fromState returns the external name a state value implies.
func (e ExternalName) fromState(state cty.Value) (string, error) {
	if e.ExternalNameFromState != nil {
		return e.ExternalNameFromState(state)
	}
	if state.IsNull() || !state.Type().IsObjectType() || !state.Type().HasAttribute("id") {
		return "", fmt.Errorf("the state has no id")
	}
	id := state.GetAttr("id")
	if id.IsNull() || !id.IsKnown() || !id.Type().Equals(cty.String) {
		return "", fmt.Errorf("the state's id is not a known string")
	}
	return id.AsString(), nil
}

// withIdentifier writes the external name into config when the kind has
// an identifier argument.
func (e ExternalName) withIdentifier(config cty.Value, name string) cty.Value {
	if e.SetIdentifierArgument == nil || name == "" {
		return config
	}
	return e.SetIdentifierArgument(config, name)
}

// setIfNull sets attribute attr of the object v to val when it is null.
func setIfNull(v cty.Value, attr string, val cty.Value) cty.Value {
	if v.IsNull() || !v.Type().IsObjectType() || !v.Type().HasAttribute(attr) || !v.GetAttr(attr).IsNull() {
		return v
	}
	m := v.AsValueMap()
	m[attr] = val
	return cty.ObjectVal(m)
}
