package plugins

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/pulumi/schema"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

// The parameterized plugins' names, as pulumi-terraform-bridge's dynamic
// provider and Pulumi's terraform-module provider are named, so that
// "pulumi package add terraform-provider hashicorp/random" and
// "pulumi package add terraform-module ./net netmod" read as they do
// there.
const (
	ProviderPlugin = "terraform-provider"
	ModulePlugin   = "terraform-module"
)

// providerParameter is the parameter value of a provider package: the
// provider's full source address and the exact version chosen, so a
// program replays the package it was written against.
type providerParameter struct {
	Source  string `json:"source"`
	Version string `json:"version"`
}

// providerParams parameterizes terraform-provider: "SOURCE [VERSION]"
// (hashicorp/random 3.9.0) serves that installed provider plugin as the
// package named by its type (random) at its version.
type providerParams struct{ find providerFinder }

func (p providerParams) Args(args []string) (*server.Package, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, fmt.Errorf("%s takes a provider source address and an optional version (hashicorp/random 3.9.0), not %d arguments", ProviderPlugin, len(args))
	}
	constraint := ""
	if len(args) == 2 {
		constraint = args[1]
	}
	return p.make(args[0], constraint)
}

func (p providerParams) Value(name, version string, value []byte) (*server.Package, error) {
	var v providerParameter
	if err := strictJSON(value, &v); err != nil || v.Source == "" || v.Version == "" {
		return nil, fmt.Errorf("the parameter of package %s is not a %s parameter (want {\"source\":..., \"version\":...})", name, ProviderPlugin)
	}
	pkg, err := p.make(v.Source, "= "+v.Version)
	if err != nil {
		return nil, err
	}
	if pkg.Name != name || pkg.Version != version {
		return nil, fmt.Errorf("the parameter names %s %s, but the package is %s %s", pkg.Name, pkg.Version, name, version)
	}
	return pkg, nil
}

func (p providerParams) make(source, constraint string) (*server.Package, error) {
	addr, err := addrs.ParseProviderSource(source)
	if err != nil {
		return nil, fmt.Errorf("provider source %q: %w", source, err)
	}
	exe, v, err := p.find.find(addr, constraint)
	if err != nil {
		return nil, err
	}
	value, err := json.Marshal(providerParameter{Source: addr.String(), Version: v.String()})
	if err != nil {
		return nil, err
	}
	return &server.Package{Name: addr.Type, Version: v.String(), Value: value, Load: pluginLoader(exe, addr)}, nil
}

// moduleParameter is the parameter value of a module package.
type moduleParameter struct {
	Source  string `json:"source"`
	Version string `json:"version,omitempty"`
	Name    string `json:"name"`
}

// localModuleVersion is the version of a package made from a local
// module, which has none: Pulumi requires one.
const localModuleVersion = "0.0.1"

// moduleParams parameterizes terraform-module as Pulumi's
// terraform-module provider takes its arguments: "SOURCE [VERSION]
// NAME" (./net netmod) serves the module as package NAME, with one
// component, NAME:index:Module.
type moduleParams struct {
	// cwd is what a relative module source is relative to: the Pulumi
	// project's directory.
	cwd string
}

func (p moduleParams) Args(args []string) (*server.Package, error) {
	switch len(args) {
	case 2:
		return p.make(moduleParameter{Source: args[0], Name: args[1]})
	case 3:
		return p.make(moduleParameter{Source: args[0], Version: args[1], Name: args[2]})
	}
	return nil, fmt.Errorf("%s takes a module source, an optional version and a package name (./net netmod), not %d arguments", ModulePlugin, len(args))
}

func (p moduleParams) Value(name, version string, value []byte) (*server.Package, error) {
	var v moduleParameter
	if err := strictJSON(value, &v); err != nil || v.Source == "" || v.Name == "" {
		return nil, fmt.Errorf("the parameter of package %s is not a %s parameter (want {\"source\":..., \"name\":...})", name, ModulePlugin)
	}
	pkg, err := p.make(v)
	if err != nil {
		return nil, err
	}
	if pkg.Name != name || pkg.Version != version {
		return nil, fmt.Errorf("the parameter names %s %s, but the package is %s %s", pkg.Name, pkg.Version, name, version)
	}
	return pkg, nil
}

func (p moduleParams) make(m moduleParameter) (*server.Package, error) {
	if !isLocalModule(m.Source) {
		return nil, fmt.Errorf("module source %q: Cairn serves local modules (./dir, ../dir or an absolute path) as packages; registry and remote sources are not supported here yet", m.Source)
	}
	if m.Version != "" {
		return nil, fmt.Errorf("module source %q is local and takes no version (got %q)", m.Source, m.Version)
	}
	dir := m.Source
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(p.cwd, dir)
	}
	iface, err := modulerun.Inspect(dir)
	if err != nil {
		return nil, err
	}
	value, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	mp := &server.ModulePackage{
		Source: m.Source, Version: m.Version, Dir: dir,
		Description: "The Terraform module " + m.Source + " served by Cairn.",
	}
	for _, v := range iface.Variables {
		mp.Variables = append(mp.Variables, schema.ModuleVariable{Name: v.Name, Type: v.Type, Required: v.Required, Sensitive: v.Sensitive, Description: v.Description})
	}
	for _, o := range iface.Outputs {
		mp.Outputs = append(mp.Outputs, schema.ModuleOutput{Name: o.Name, Sensitive: o.Sensitive, Description: o.Description})
	}
	return &server.Package{Name: m.Name, Version: localModuleVersion, Value: value, Module: mp, Load: Terraform(p.cwd)}, nil
}

// isLocalModule is Terraform's rule for a local module source.
func isLocalModule(source string) bool {
	return strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../") || filepath.IsAbs(source)
}

// strictJSON decodes data into v, refusing unknown fields and trailing
// data, so a parameter from another plugin is not half-read.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data")
	}
	return nil
}

// unparameterized is the loader of a parameterized plugin that was not
// parameterized: it has no package of its own to serve.
func unparameterized(name, example string) server.Loader {
	return func() (*server.Provider, error) {
		return nil, fmt.Errorf("the %s plugin serves the package its parameters name (pulumi package add %s %s); it was given none", name, name, example)
	}
}
