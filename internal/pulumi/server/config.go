package server

import (
	"context"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/fieldname"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/pulumi/propval"
)

// pulumiConfigKeys are provider inputs that are Pulumi's, not the
// provider's: the plugin version and where to download it.
var pulumiConfigKeys = []resource.PropertyKey{"version", "pluginDownloadURL"}

// providerConfig converts provider inputs to a configuration value of the
// provider block, leaving out Pulumi's own keys. Settings the engine
// sends as JSON in a string (stack configuration that is not a string)
// are decoded first (propval.DecodeConfig).
func (s *Server) providerConfig(pm resource.PropertyMap) (cty.Value, error) {
	pm = pm.Copy()
	for _, k := range pulumiConfigKeys {
		delete(pm, k)
	}
	c := propval.Converter{Block: s.schema.Provider.Block}
	pm, err := c.DecodeConfig(pm)
	if err != nil {
		return cty.NilVal, err
	}
	return c.ToCty(pm)
}

// CheckConfig validates the provider's configuration as Check validates a
// resource's inputs, with the provider's ValidateProviderConfig.
func (s *Server) CheckConfig(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	pm, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	config, err := s.providerConfig(pm)
	if err != nil {
		return &pulumirpc.CheckResponse{Inputs: req.GetNews(), Failures: []*pulumirpc.CheckFailure{conversionFailure(err)}}, nil
	}
	var failures []*pulumirpc.CheckFailure
	for _, p := range conform(s.schema.Provider.Block, config, nil) {
		failures = append(failures, &pulumirpc.CheckFailure{Property: propertyPath(p.path), Reason: p.msg})
	}
	if len(failures) == 0 {
		resp := s.inst.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked(config)})
		s.warn(ctx, resource.URN(req.GetUrn()), resp.Diagnostics)
		failures = checkFailures(resp.Diagnostics)
	}
	return &pulumirpc.CheckResponse{Inputs: req.GetNews(), Failures: failures}, nil
}

// DiffConfig compares two provider configurations. A change to one of
// the attributes the provider names in ConfigReplaces (awscc's region)
// replaces the provider, and with it every resource it manages, since the
// new configuration cannot reach the old objects; any other change is an
// update that leaves the resources alone. An unknown new value of such an
// attribute may be a change, so it counts as one.
func (s *Server) DiffConfig(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	olds, err := unmarshal(req.GetOlds())
	if err != nil {
		return nil, err
	}
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	// One setting may come JSON-encoded on one side and decoded on the
	// other (stack configuration against a provider resource's inputs).
	c := propval.Converter{Block: s.schema.Provider.Block}
	if d, err := c.DecodeConfig(olds); err == nil {
		olds = d
	}
	if d, err := c.DecodeConfig(news); err == nil {
		news = d
	}
	replacing := map[string]bool{}
	for _, a := range s.p.ConfigReplaces {
		replacing[fieldname.Camel(a)] = true
	}
	resp := &pulumirpc.DiffResponse{HasDetailedDiff: true, DetailedDiff: map[string]*pulumirpc.PropertyDiff{}}
	for _, k := range unionKeys(olds, news) {
		kind, changed := configChange(olds[k], news[k])
		if !changed {
			continue
		}
		if replacing[string(k)] {
			kind += pulumirpc.PropertyDiff_ADD_REPLACE - pulumirpc.PropertyDiff_ADD
			resp.Replaces = append(resp.Replaces, string(k))
		}
		resp.Diffs = append(resp.Diffs, string(k))
		resp.DetailedDiff[string(k)] = &pulumirpc.PropertyDiff{Kind: kind, InputDiff: true}
	}
	resp.Changes = pulumirpc.DiffResponse_DIFF_NONE
	if len(resp.Diffs) > 0 {
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	return resp, nil
}

// configChange says whether a configuration property changed, and how.
func configChange(old, new resource.PropertyValue) (pulumirpc.PropertyDiff_Kind, bool) {
	old, new = unsecret(old), unsecret(new)
	switch {
	case new.IsComputed() || (new.IsOutput() && !new.OutputValue().Known):
		return pulumirpc.PropertyDiff_UPDATE, true
	case old.IsNull() && new.IsNull():
		return 0, false
	case old.IsNull():
		return pulumirpc.PropertyDiff_ADD, true
	case new.IsNull():
		return pulumirpc.PropertyDiff_DELETE, true
	case old.DeepEquals(new):
		return 0, false
	}
	return pulumirpc.PropertyDiff_UPDATE, true
}

// unsecret is v with every secret inside it replaced by its value: a
// setting that becomes secret (or stops being) with the same value does
// not change the provider.
func unsecret(v resource.PropertyValue) resource.PropertyValue {
	for v.IsSecret() {
		v = v.SecretValue().Element
	}
	switch {
	case v.IsArray():
		out := make([]resource.PropertyValue, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			out[i] = unsecret(e)
		}
		return resource.NewProperty(out)
	case v.IsObject():
		out := make(resource.PropertyMap, len(v.ObjectValue()))
		for k, e := range v.ObjectValue() {
			out[k] = unsecret(e)
		}
		return resource.NewProperty(out)
	}
	return v
}

func unionKeys(a, b resource.PropertyMap) []resource.PropertyKey {
	seen := map[resource.PropertyKey]bool{}
	var out []resource.PropertyKey
	for _, m := range []resource.PropertyMap{a, b} {
		for _, k := range m.StableKeys() {
			if !seen[k] && !strings.HasPrefix(string(k), "__") && k != "version" && k != "pluginDownloadURL" {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// Configure configures the provider instance: with the provider's
// inputs (args), or, from engines that send only variables, with the
// stack configuration ("awscc:config:region" or "awscc:region").
func (s *Server) Configure(ctx context.Context, req *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	pm, err := s.configureArgs(req)
	if err != nil {
		return nil, err
	}
	s.modules.configured(pm)
	config, err := s.providerConfig(pm)
	if err != nil {
		return nil, failure("Invalid provider configuration", err.Error())
	}
	if err := s.diagsError(ctx, "", providers.Configure(ctx, s.inst, unmarked(config), "")); err != nil {
		return nil, err
	}
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true, AcceptResources: true}, nil
}

// configureArgs are the provider's inputs, or, from engines that send
// only variables, the stack configuration: each variable's raw string,
// which providerConfig decodes as it decodes JSON-encoded inputs.
func (s *Server) configureArgs(req *pulumirpc.ConfigureRequest) (resource.PropertyMap, error) {
	if req.GetArgs() != nil {
		return unmarshal(req.GetArgs())
	}
	pm := resource.PropertyMap{}
	for k, raw := range req.GetVariables() {
		pm[resource.PropertyKey(k[strings.LastIndex(k, ":")+1:])] = resource.NewProperty(raw)
	}
	return pm, nil
}

// unmarked drops sensitive marks: the provider interface takes values
// without them.
func unmarked(v cty.Value) cty.Value {
	u, _ := v.UnmarkDeep()
	return u
}
