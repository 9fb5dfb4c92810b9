package schema

import (
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/pulumi/tokens"
)

// Input is what a package schema is built from.
type Input struct {
	// Name is the provider's local name, which is also the Pulumi
	// package name and the prefix of its type names: "awscc".
	Name    string
	Version string

	DisplayName, Description, Homepage, Repository, License, Publisher string

	Schema providers.GetProviderSchemaResponse

	// ModuleComponent adds the generic Terraform module component,
	// <name>:index:Module (see ModuleComponent).
	ModuleComponent bool
}

// packageName is the metaschema's pattern for package names.
var packageName = regexp.MustCompile(`^[a-zA-Z][-a-zA-Z0-9_]*$`)

// ModuleFormat takes the service from a bridged token's module part:
// "s3/bucket" is module s3.
const ModuleFormat = "(.*)(?:/[^/]*)"

// Build returns the package schema of a provider. Every resource type and
// data source becomes a resource or function; a type name that cannot be
// a token is an error naming it, since leaving it out would serve a type
// that Pulumi programs could not name.
func Build(in Input) (*Package, error) {
	if !packageName.MatchString(in.Name) {
		return nil, fmt.Errorf("package name %q: want a letter followed by letters, digits, - or _", in.Name)
	}
	b := &builder{pkg: in.Name, types: map[string]Object{}, owners: map[string]string{}}
	p := &Package{
		Name: in.Name, Version: in.Version, DisplayName: in.DisplayName, Description: in.Description,
		Homepage: in.Homepage, Repository: in.Repository, License: in.License, Publisher: in.Publisher,
		Meta:      &Meta{ModuleFormat: ModuleFormat},
		Resources: map[string]Resource{}, Functions: map[string]Function{},
	}
	if err := b.provider(p, in.Schema.Provider.Block); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(in.Schema.ResourceTypes)) {
		tok, err := tokens.Resource(in.Name, name)
		if err != nil {
			return nil, fmt.Errorf("resource type %s: %w", name, err)
		}
		r, err := b.resource(tok, in.Schema.ResourceTypes[name].Block)
		if err != nil {
			return nil, fmt.Errorf("resource type %s: %w", name, err)
		}
		p.Resources[tok.String()] = r
	}
	for _, name := range slices.Sorted(maps.Keys(in.Schema.DataSources)) {
		tok, err := tokens.Function(in.Name, name)
		if err != nil {
			return nil, fmt.Errorf("data source %s: %w", name, err)
		}
		f, err := b.function(tok, in.Schema.DataSources[name].Block)
		if err != nil {
			return nil, fmt.Errorf("data source %s: %w", name, err)
		}
		p.Functions[tok.String()] = f
	}
	if in.ModuleComponent {
		p.Resources[in.Name+":index:Module"] = ModuleComponent()
	}
	p.Types = b.types
	return p, nil
}

// provider fills the stack configuration and the provider resource from
// the provider block: every attribute is both a config variable
// (awscc:region) and an input of an explicit provider resource.
func (b *builder) provider(p *Package, block *configschema.Block) error {
	p.Provider = Resource{Description: "The provider type for the " + p.Name + " package."}
	if block == nil {
		return nil
	}
	scope := typeScope{module: tokens.IndexModule, prefix: "Provider"}
	in, req, err := b.properties(scope, block, inputs)
	if err != nil {
		return fmt.Errorf("provider configuration: %w", err)
	}
	// "version" is the provider plugin's version in every Pulumi
	// provider's inputs; an attribute of that name cannot be served.
	delete(in, "version")
	p.Provider.InputProperties, p.Provider.RequiredInputs = in, without(req, "version")
	p.Config.Variables = in
	return nil
}

func (b *builder) resource(tok tokens.Token, block *configschema.Block) (Resource, error) {
	scope := typeScope{module: tok.Module, prefix: tok.Name}
	out, req, err := b.properties(scope, block, outputs)
	if err != nil {
		return Resource{}, err
	}
	in, reqIn, err := b.properties(scope, block, inputs)
	if err != nil {
		return Resource{}, err
	}
	// A resource's id and urn are the engine's; the provider's id
	// attribute becomes the resource's ID, as in bridged providers.
	for _, reserved := range []string{"id", "urn"} {
		delete(out, reserved)
		delete(in, reserved)
		req, reqIn = without(req, reserved), without(reqIn, reserved)
	}
	return Resource{
		Description: block.Description, Properties: out, Required: req,
		InputProperties: in, RequiredInputs: reqIn, DeprecationMessage: deprecation(block.Deprecated),
	}, nil
}

func (b *builder) function(tok tokens.Token, block *configschema.Block) (Function, error) {
	scope := typeScope{module: tok.Module, prefix: upperFirst(tok.Name)}
	in, reqIn, err := b.properties(scope, block, inputs)
	if err != nil {
		return Function{}, err
	}
	out, req, err := b.properties(scope, block, outputs)
	if err != nil {
		return Function{}, err
	}
	return Function{
		Description:        block.Description,
		Inputs:             &Object{Type: "object", Properties: in, Required: reqIn},
		Outputs:            &Object{Type: "object", Properties: out, Required: req},
		DeprecationMessage: deprecation(block.Deprecated),
	}, nil
}

func deprecation(d bool) string {
	if d {
		return "Deprecated by the provider."
	}
	return ""
}

func without(names []string, name string) []string {
	out := names[:0:0]
	for _, n := range names {
		if n != name {
			out = append(out, n)
		}
	}
	return out
}
