package eval

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// ConfigureProvider evaluates the provider block of addr (cfg may be nil:
// no block, an empty configuration) and configures the set's instance for
// addr with it; a block with for_each configures one instance per key
// (addr with that key) instead. Provider diagnostics are located in the
// block, or name the provider configuration when there is none.
func ConfigureProvider(set *providers.InstanceSet, addr addrs.AbsProviderConfig, cfg *configs.Provider, schema *configschema.Block, env *Env) diags.Diagnostics {
	if cfg != nil && cfg.ForEach != nil {
		return configureInstances(set, addr, cfg, schema, env)
	}
	return configureWith(set, addr, cfg, schema, env, env.Scope(addr.Module.UnkeyedInstance()))
}

// configureWith configures the instance addr with block cfg evaluated in
// scope.
func configureWith(set *providers.InstanceSet, addr addrs.AbsProviderConfig, cfg *configs.Provider, schema *configschema.Block, env *Env, scope *lang.Scope) diags.Diagnostics {
	config, ds := providerConfigIn(scope, cfg, schema)
	if ds.HasErrors() {
		return ds
	}
	// Its secrets are the run's (a sensitive default tag the provider
	// copies into every object's tags_all, an access key it echoes in an
	// error).
	env.Secrets.AddSecrets(schema.Secrets(config))
	u := marks.Strip(config)
	if d := lang.UnstorableNumber(u); d != nil {
		return ds.Append(providerDiags(diags.Diagnostics{*d}, cfg, addr))
	}
	pds := set.Configure(addr, u, config, configs.LanguageVersion)
	return ds.Append(providerDiags(pds, cfg, addr))
}

// ProviderConfigValue evaluates a provider block in the scope of its
// module (a provider configuration belongs to a module, not to one of its
// instances). Without a block, required arguments are still reported.
func ProviderConfigValue(addr addrs.AbsProviderConfig, cfg *configs.Provider, schema *configschema.Block, env *Env) (cty.Value, diags.Diagnostics) {
	return providerConfigIn(env.Scope(addr.Module.UnkeyedInstance()), cfg, schema)
}

func providerConfigIn(scope *lang.Scope, cfg *configs.Provider, schema *configschema.Block) (cty.Value, diags.Diagnostics) {
	if schema == nil {
		return cty.EmptyObjectVal, nil
	}
	if cfg == nil {
		return scope.EvalBlock(emptyBody{}, schema)
	}
	return scope.EvalBlock(cfg.Config, schema)
}

func providerDiags(ds diags.Diagnostics, cfg *configs.Provider, addr addrs.AbsProviderConfig) diags.Diagnostics {
	if cfg != nil {
		return ds.InBody(cfg.Config, cfg.DeclRange)
	}
	return ds.WithAddressOf(addr)
}
