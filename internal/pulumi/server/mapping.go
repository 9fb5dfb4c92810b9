package server

import (
	"context"
	"encoding/json"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// MappingKey is the conversion key Pulumi's Terraform converter asks
// mappings for (pulumi convert --from terraform).
const MappingKey = "terraform"

// GetMapping returns, for key "terraform", the mapping from the served
// provider's Terraform names to its Pulumi tokens, in the format
// pulumi-terraform-bridge providers answer with (see mappingInfo), so
// the converter can translate configurations that use the provider. A
// provider name other than the served provider's (by its Terraform type
// name: random), or another key, gets an empty answer, as bridged
// providers give.
func (s *Server) GetMapping(ctx context.Context, req *pulumirpc.GetMappingRequest) (*pulumirpc.GetMappingResponse, error) {
	if req.GetKey() != MappingKey {
		return &pulumirpc.GetMappingResponse{}, nil
	}
	if m := s.modulePackage(); m != nil {
		return &pulumirpc.GetMappingResponse{}, nil
	}
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	name := s.p.Addr.Type
	if req.GetProvider() != "" && req.GetProvider() != name {
		return &pulumirpc.GetMappingResponse{}, nil
	}
	data, err := json.Marshal(s.mapping())
	if err != nil {
		return nil, failure("Failed to build the mapping", err.Error())
	}
	return &pulumirpc.GetMappingResponse{Provider: name, Data: data}, nil
}

// GetMappings names the providers GetMapping has a mapping for: the
// served provider's Terraform type name, for key "terraform".
func (s *Server) GetMappings(ctx context.Context, req *pulumirpc.GetMappingsRequest) (*pulumirpc.GetMappingsResponse, error) {
	if req.GetKey() != MappingKey || s.modulePackage() != nil {
		return &pulumirpc.GetMappingsResponse{}, nil
	}
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	return &pulumirpc.GetMappingsResponse{Providers: []string{s.p.Addr.Type}}, nil
}

// mapping is the bridge-format mapping of the loaded provider. Property
// names need no entry: Cairn's are the lowerCamelCase of the Terraform
// names, the converter's default. What does need one is the shape of
// nested blocks, which the converter would otherwise guess from
// MaxItems: a single nested block is an object (maxItemsOne true), and
// a list block of at most one item stays a list (maxItemsOne false).
func (s *Server) mapping() *mappingInfo {
	m := &mappingInfo{
		Provider: &mappingProvider{
			Schema:      tfBlock(s.schema.Provider.Block),
			Resources:   map[string]map[string]*tfSchema{},
			DataSources: map[string]map[string]*tfSchema{},
		},
		Name: s.p.Addr.Type, Version: s.info.Version,
		Config:      fieldInfos(s.schema.Provider.Block),
		Resources:   map[string]*resourceInfo{},
		DataSources: map[string]*dataSourceInfo{},
	}
	if s.param != nil {
		// A parameterized package's version is the provider's.
		m.TFProviderVersion = s.info.Version
	}
	for tok, name := range s.resources {
		b := s.schema.ResourceTypes[name].Block
		m.Provider.Resources[name] = tfBlock(b)
		m.Resources[name] = &resourceInfo{Tok: tok, Fields: fieldInfos(b)}
	}
	for tok, name := range s.functions {
		b := s.schema.DataSources[name].Block
		m.Provider.DataSources[name] = tfBlock(b)
		m.DataSources[name] = &dataSourceInfo{Tok: tok, Fields: fieldInfos(b)}
	}
	return m
}
