package plugins

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The bridge's mapping format (pulumi-terraform-bridge's
// MarshallableProviderInfo and the types it holds), as Pulumi's Terraform
// converter reads it: the mapping is decoded with unknown fields refused,
// so every field Cairn writes is one the format has.
type (
	bridgeProviderInfo struct {
		Provider          *bridgeProvider                  `json:"provider"`
		Name              string                           `json:"name"`
		Version           string                           `json:"version"`
		Config            map[string]*bridgeSchemaInfo     `json:"config,omitempty"`
		Resources         map[string]*bridgeResourceInfo   `json:"resources,omitempty"`
		DataSources       map[string]*bridgeDataSourceInfo `json:"dataSources,omitempty"`
		TFProviderVersion string                           `json:"tfProviderVersion,omitempty"`
	}
	bridgeProvider struct {
		Schema      map[string]*bridgeSchema            `json:"schema,omitempty"`
		Resources   map[string]map[string]*bridgeSchema `json:"resources,omitempty"`
		DataSources map[string]map[string]*bridgeSchema `json:"dataSources,omitempty"`
	}
	bridgeSchema struct {
		Type               int         `json:"type"`
		Optional           bool        `json:"optional,omitempty"`
		Required           bool        `json:"required,omitempty"`
		Computed           bool        `json:"computed,omitempty"`
		ForceNew           bool        `json:"forceNew,omitempty"`
		Elem               *bridgeElem `json:"element,omitempty"`
		MaxItems           int         `json:"maxItems,omitempty"`
		MinItems           int         `json:"minItems,omitempty"`
		DeprecationMessage string      `json:"deprecated,omitempty"`
	}
	bridgeElem struct {
		Schema   *bridgeSchema            `json:"schema,omitempty"`
		Resource map[string]*bridgeSchema `json:"resource,omitempty"`
	}
	bridgeSchemaInfo struct {
		Name        string                       `json:"name,omitempty"`
		CSharpName  string                       `json:"csharpName,omitempty"`
		Type        string                       `json:"typeomitempty"`
		AltTypes    []string                     `json:"altTypes,omitempty"`
		Elem        *bridgeSchemaInfo            `json:"element,omitempty"`
		Fields      map[string]*bridgeSchemaInfo `json:"fields,omitempty"`
		Asset       any                          `json:"asset,omitempty"`
		Default     any                          `json:"default,omitempty"`
		MaxItemsOne *bool                        `json:"maxItemsOne,omitempty"`
		Deprecated  string                       `json:"deprecated,omitempty"`
		ForceNew    *bool                        `json:"forceNew,omitempty"`
		Secret      *bool                        `json:"secret,omitempty"`
	}
	bridgeResourceInfo struct {
		Tok      string                       `json:"tok"`
		Fields   map[string]*bridgeSchemaInfo `json:"fields"`
		IDFields []string                     `json:"idFields"`
	}
	bridgeDataSourceInfo struct {
		Tok    string                       `json:"tok"`
		Fields map[string]*bridgeSchemaInfo `json:"fields"`
	}
)

// TestGetMapping: the parameterized random package maps its Terraform
// names to its tokens for key "terraform", in the bridge's format; other
// keys and other providers get the empty answer bridged providers give.
func TestGetMapping(t *testing.T) {
	s := providerServer(t, randomMirror(t))
	ctx := context.Background()
	if _, err := s.Parameterize(ctx, byArgs("hashicorp/random")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		what, key, provider string
		want                bool
	}{
		{"the served provider", "terraform", "random", true},
		{"no provider named (an old engine)", "terraform", "", true},
		{"another provider", "terraform", "aws", false},
		{"another key", "pulumi", "random", false},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			resp, err := s.GetMapping(ctx, &pulumirpc.GetMappingRequest{Key: c.key, Provider: c.provider})
			if err != nil {
				t.Fatal(err)
			}
			if !c.want {
				if resp.GetProvider() != "" || len(resp.GetData()) != 0 {
					t.Fatalf("got %s %s, want an empty answer", resp.GetProvider(), resp.GetData())
				}
				return
			}
			if resp.GetProvider() != "random" {
				t.Errorf("provider %q, want random", resp.GetProvider())
			}
			var m bridgeProviderInfo
			dec := json.NewDecoder(bytes.NewReader(resp.GetData()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&m); err != nil {
				t.Fatalf("not the bridge's format: %v", err)
			}
			if m.Name != "random" || m.Version != "3.9.0" || m.TFProviderVersion != "3.9.0" {
				t.Errorf("name %q version %q tfProviderVersion %q", m.Name, m.Version, m.TFProviderVersion)
			}
			if r := m.Resources["random_pet"]; r == nil || r.Tok != "random:index/pet:Pet" {
				t.Errorf("random_pet: %+v", r)
			}
			if r := m.Resources["random_password"]; r == nil || r.Tok != "random:index/password:Password" {
				t.Errorf("random_password: %+v", r)
			}
			pet := m.Provider.Resources["random_pet"]
			if l := pet["length"]; l == nil || l.Type != 3 || !l.Optional {
				t.Errorf("random_pet.length: %+v, want an optional number (SDKv2 TypeFloat)", l)
			}
			if k := pet["keepers"]; k == nil || k.Type != 6 || k.Elem == nil || k.Elem.Schema == nil || k.Elem.Schema.Type != 4 {
				t.Errorf("random_pet.keepers: %+v, want a map of strings", k)
			}
		})
	}
	resp, err := s.GetMappings(ctx, &pulumirpc.GetMappingsRequest{Key: "terraform"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(resp.GetProviders(), []string{"random"}) {
		t.Errorf("GetMappings: %v", resp.GetProviders())
	}
	if resp, _ := s.GetMappings(ctx, &pulumirpc.GetMappingsRequest{Key: "crossplane"}); len(resp.GetProviders()) != 0 {
		t.Errorf("GetMappings of another key: %v", resp.GetProviders())
	}
}
