package server

import (
	"context"
	"encoding/json"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/pulumi/schema"
)

// Parameterizer makes the package a parameterized server serves: one
// plugin (terraform-provider) serves any Terraform provider, and another
// (terraform-module) any module, each as a package of its own name,
// version and schema. Errors are for the user who gave the parameters.
type Parameterizer interface {
	// Args reads the parameters of "pulumi package add PLUGIN ARGS...".
	Args(args []string) (*Package, error)
	// Value reads back the parameter a package's schema carried
	// (Package.Value), which the engine replays when a program uses the
	// package; name and version are the package's.
	Value(name, version string, value []byte) (*Package, error)
}

// Package is a parameterized package: what it is called, the parameter
// that makes it again, and what serves it.
type Package struct {
	// Name and Version name the package (random, 3.9.0).
	Name, Version string
	// Value is the parameter the package's schema carries, for
	// Parameterizer.Value.
	Value []byte
	// Load loads the provider that serves the package's resources.
	Load Loader
	// Module, when set, makes the package a Terraform module's typed
	// component package: its schema is built from the module's interface,
	// not from a provider's.
	Module *ModulePackage
	// Mapping, when set, is the provider's name in Terraform
	// configurations, for GetMapping ("random"); empty serves no mapping.
	Mapping string
}

// ModulePackage is a Terraform module served as a component package.
type ModulePackage struct {
	// Source and Version say where the module comes from, as a module
	// block would (./net; terraform-aws-modules/vpc/aws 5.18.1).
	Source, Version string
	// Dir is the module's directory, absolute, when the source is
	// local (relative sources are relative to the plugin's working
	// directory, the Pulumi project's).
	Dir         string
	Description string
	Variables   []schema.ModuleVariable
	Outputs     []schema.ModuleOutput
}

// parameterized is what Parameterize set: the package and the base
// plugin it runs on.
type parameterized struct {
	pkg  *Package
	base Info
}

// Parameterize turns the server into a parameterized package's, by
// arguments (pulumi package add) or by value (a program using the
// package). It must come before the provider loads; a second call for the
// same package is answered again, one for another package is an error,
// since one plugin process serves one package.
func (s *Server) Parameterize(_ context.Context, req *pulumirpc.ParameterizeRequest) (*pulumirpc.ParameterizeResponse, error) {
	// Held throughout: calls are rare, and the package is made once.
	s.mu.Lock()
	defer s.mu.Unlock()
	pz := s.info.Parameterize
	if s.param != nil {
		pz = s.param.base.Parameterize
	}
	if pz == nil {
		return nil, failure("Parameters not supported", fmt.Sprintf("The %s plugin serves one package and takes no parameters; Cairn's parameterized plugins are terraform-provider and terraform-module.", s.info.Name))
	}
	if s.param == nil && s.started {
		return nil, failure("Already serving", fmt.Sprintf("The %s plugin was already serving its own package when it was parameterized.", s.info.Name))
	}
	var pkg *Package
	var err error
	switch p := req.GetParameters().(type) {
	case *pulumirpc.ParameterizeRequest_Args:
		pkg, err = pz.Args(p.Args.GetArgs())
	case *pulumirpc.ParameterizeRequest_Value:
		pkg, err = pz.Value(p.Value.GetName(), p.Value.GetVersion(), p.Value.GetValue())
	default:
		err = fmt.Errorf("the request holds neither arguments nor a value")
	}
	if err != nil {
		return nil, failure("Invalid parameters", err.Error())
	}
	if s.param != nil {
		if s.param.pkg.Name == pkg.Name && s.param.pkg.Version == pkg.Version {
			return &pulumirpc.ParameterizeResponse{Name: pkg.Name, Version: pkg.Version}, nil
		}
		return nil, failure("Already parameterized", fmt.Sprintf("This plugin process serves %s %s, not %s %s.", s.param.pkg.Name, s.param.pkg.Version, pkg.Name, pkg.Version))
	}
	s.param = &parameterized{pkg: pkg, base: s.info}
	s.info = Info{Name: pkg.Name, Version: pkg.Version}
	s.loader = pkg.Load
	return &pulumirpc.ParameterizeResponse{Name: pkg.Name, Version: pkg.Version}, nil
}

// parameterization is what the schema says of the package's
// parameterization, nil when there is none.
func (s *Server) parameterization() *schema.Parameterization {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.param == nil {
		return nil
	}
	return &schema.Parameterization{
		BaseProvider: schema.BaseProvider{Name: s.param.base.Name, Version: s.param.base.Version},
		Parameter:    s.param.pkg.Value,
	}
}

// modulePackage returns the module a parameterized server serves, if it
// serves one.
func (s *Server) modulePackage() *ModulePackage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.param == nil {
		return nil
	}
	return s.param.pkg.Module
}

// moduleSchemaResponse answers GetSchema for the module package m: the
// schema comes from the module's interface, so no provider is loaded.
func (s *Server) moduleSchemaResponse(m *ModulePackage) (*pulumirpc.GetSchemaResponse, error) {
	pkg, err := schema.BuildModule(schema.ModuleInput{
		Name: s.info.Name, Version: s.info.Version, Description: m.Description,
		Variables: m.Variables, Outputs: m.Outputs,
	})
	if err != nil {
		return nil, failure("Failed to build the package schema", err.Error())
	}
	pkg.Parameterization = s.parameterization()
	data, err := json.Marshal(pkg)
	if err != nil {
		return nil, failure("Failed to build the package schema", err.Error())
	}
	return &pulumirpc.GetSchemaResponse{Schema: string(data)}, nil
}

// checkSubpackage refuses a schema request for a package other than the
// one served: the engine names the parameterized package it expects.
func (s *Server) checkSubpackage(req *pulumirpc.GetSchemaRequest) error {
	name, version := req.GetSubpackageName(), req.GetSubpackageVersion()
	if name == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if name != s.info.Name || (version != "" && version != s.info.Version) {
		return failure("Unknown package", fmt.Sprintf("This plugin process serves %s %s, not %s %s.", s.info.Name, s.info.Version, name, version))
	}
	return nil
}
