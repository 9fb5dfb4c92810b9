package schema

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/pulumi/tokens"
)

// ModuleType is the module part and name of a module package's one
// component resource: netmod:index:Module.
const ModuleType = tokens.IndexModule + ":Module"

// ModuleInput is what a Terraform module's package schema is built from:
// the module's variables become the component's inputs and its outputs
// the component's outputs.
type ModuleInput struct {
	// Name is the package name the user chose (netmod); Version the
	// module's version, or a placeholder for a local module.
	Name, Version, Description string
	Variables                  []ModuleVariable
	Outputs                    []ModuleOutput
}

// ModuleVariable is one variable of a module.
type ModuleVariable struct {
	Name string
	// Type is the variable's type constraint; cty.DynamicPseudoType when
	// it has none (Pulumi's Any).
	Type                cty.Type
	Required, Sensitive bool
	Description         string
}

// ModuleOutput is one output of a module. Outputs declare no type, so
// every output is Any.
type ModuleOutput struct {
	Name        string
	Sensitive   bool
	Description string
}

// ModuleInputs is the block whose implied type is the module's
// variables as one object: the component's inputs are converted through
// it (propval), and the schema's input properties are built from it.
func ModuleInputs(vars []ModuleVariable) *configschema.Block {
	b := &configschema.Block{Attributes: map[string]*configschema.Attribute{}}
	for _, v := range vars {
		b.Attributes[v.Name] = &configschema.Attribute{
			Type: v.Type, Required: v.Required, Optional: !v.Required,
			Sensitive: v.Sensitive, Description: v.Description,
		}
	}
	return b
}

// ModuleOutputs is the block whose implied type is the module's outputs
// as one object, each of unknown type.
func ModuleOutputs(outs []ModuleOutput) *configschema.Block {
	b := &configschema.Block{Attributes: map[string]*configschema.Attribute{}}
	for _, o := range outs {
		b.Attributes[o.Name] = &configschema.Attribute{
			Type: cty.DynamicPseudoType, Computed: true, Sensitive: o.Sensitive, Description: o.Description,
		}
	}
	return b
}

// BuildModule returns the package schema of a Terraform module served as
// a typed component package: one resource, NAME:index:Module, with
// isComponent set, the variables as typed inputs (required ones
// required, sensitive ones secret; an object-typed variable becomes a
// named object type) and the outputs as outputs (Any, sensitive ones
// secret). Names are lowerCamelCase, as every property Cairn serves.
func BuildModule(in ModuleInput) (*Package, error) {
	if !packageName.MatchString(in.Name) {
		return nil, fmt.Errorf("package name %q: want a letter followed by letters, digits, - or _", in.Name)
	}
	b := &builder{pkg: in.Name, types: map[string]Object{}, owners: map[string]string{}}
	scope := typeScope{module: tokens.IndexModule, prefix: "Module"}
	inProps, inReq, err := b.properties(scope, ModuleInputs(in.Variables), inputs)
	if err != nil {
		return nil, fmt.Errorf("module variables: %w", err)
	}
	outProps, _, err := b.properties(scope, ModuleOutputs(in.Outputs), outputs)
	if err != nil {
		return nil, fmt.Errorf("module outputs: %w", err)
	}
	p := &Package{
		Name: in.Name, Version: in.Version, Description: in.Description,
		Meta:      &Meta{ModuleFormat: ModuleFormat},
		Provider:  Resource{Description: "The provider type for the " + in.Name + " package."},
		Resources: map[string]Resource{}, Functions: map[string]Function{}, Types: b.types,
	}
	p.Resources[in.Name+":"+ModuleType] = Resource{
		Description:     in.Description,
		IsComponent:     true,
		InputProperties: inProps, RequiredInputs: inReq,
		Properties: outProps,
	}
	return p, nil
}

// ModuleComponent is the generic Terraform module component: any module
// Cairn can load, run as one component resource whose children are the
// module's resource instances. Its inputs are the module's source (and
// version, for a registry source) and its variables as a map; its one
// output is the module's outputs as a map, sensitive ones secret.
func ModuleComponent() Resource {
	anyMap := Type{Type: "object", AdditionalProperties: &Type{Ref: "pulumi.json#/Any"}}
	return Resource{
		Description: "A Terraform module run by Cairn as a component: every resource instance the module declares is a child resource, planned and applied by the engine's rules.",
		IsComponent: true,
		InputProperties: map[string]Property{
			"source":  {Type: Type{Type: "string"}, Description: "The module's source: a local directory (./modules/net) or a registry or git address."},
			"version": {Type: Type{Type: "string"}, Description: "The version constraint of a registry source."},
			"inputs":  {Type: anyMap, Description: "The module's input variables by name."},
		},
		RequiredInputs: []string{"source"},
		Properties: map[string]Property{
			"outputs": {Type: anyMap, Description: "The module's outputs by name; sensitive ones are secrets."},
		},
		Required: []string{"outputs"},
	}
}
