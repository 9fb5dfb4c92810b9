package tfplugins

import (
	"encoding/json"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/plugincache"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
)

// launchCache is what one plugin process finds in, and adds to, the
// plugin cache: entries named by the key of its schema set and types.
type launchCache struct {
	cache plugincache.Cache
	key   string
}

// openLaunchCache returns the cache entries of cfg's schema set; caching
// is off (the zero launchCache) when the set's digest cannot be read,
// since its entries could not be told from another set's.
func openLaunchCache(cfg Config) launchCache {
	dir := plugincache.Dir(cfg.Getenv)
	if dir == "" {
		return launchCache{}
	}
	digest, err := cfg.Sources.Digest()
	if err != nil {
		return launchCache{}
	}
	return launchCache{cache: plugincache.Open(dir), key: plugincache.Key("terraform-provider-awscc", digest, cfg.Types)}
}

func (c launchCache) indexName() string  { return "awscc-" + c.key + ".index.json" }
func (c launchCache) schemaName() string { return "awscc-" + c.key + ".schema.pb" }

// identityName is the kept GetResourceIdentitySchemas answer's entry.
func (c launchCache) identityName() string { return "awscc-" + c.key + ".identity.pb" }

// keptSets is how many schema sets (with their types and builds) keep
// their entries: a few configurations' CAIRN_AWSCC_TYPES and overlays,
// at most 90 MB of answers.
const keptSets = 8

// write keeps an entry and prunes its kind down to keptSets.
func (c launchCache) write(name, pattern string, data []byte) {
	if c.cache.Write(name, data) == nil {
		c.cache.Prune(pattern, keptSets)
	}
}

// typeIndex is the cached index of a schema set: every type's names and
// document, and the diagnostics of loading the set.
type typeIndex struct {
	Types    []cfnsources.Entry    `json:"types"`
	Problems cfnschema.Diagnostics `json:"problems,omitempty"`
}

// loadProvider returns the provider of cfg. With the set's index cached,
// the provider translates a type when first used (awscc.NewDeferred);
// without it, every type is translated now and the index is written for
// the next launch.
func loadProvider(cfg Config, c launchCache) (*awscc.Provider, error) {
	if data, ok := c.cache.Read(c.indexName()); ok {
		var idx typeIndex
		if json.Unmarshal(data, &idx) == nil && len(idx.Types) > 0 {
			return deferredProvider(idx, cfg.Sources.Describe()), nil
		}
	}
	catalog, problems, err := cfg.Sources.Load(cfnsources.TypeFilter(cfg.Types))
	if err != nil {
		return nil, err
	}
	p, err := awscc.NewFromCatalog(catalog, problems, cfg.Sources.Describe())
	if err != nil {
		return nil, err
	}
	if c.key != "" {
		if data, err := json.Marshal(typeIndex{Types: cfnsources.Index(catalog), Problems: problems}); err == nil {
			c.write(c.indexName(), "awscc-*.index.json", data)
		}
	}
	return p, nil
}

// deferredProvider serves idx's types, translating each from the
// document the index names when first used.
func deferredProvider(idx typeIndex, origin string) *awscc.Provider {
	byName := make(map[string]cfnsources.Entry, len(idx.Types))
	types := make([]awscc.DeferredType, len(idx.Types))
	for i, e := range idx.Types {
		byName[e.TypeName] = e
		types[i] = awscc.DeferredType{TypeName: e.TypeName, TerraformName: e.TerraformName, PluralName: e.PluralName, Suppressed: e.Suppressed != "", Listable: e.Listable}
	}
	load := func(typeName string) (*cfnschema.ResourceType, error) {
		return cfnsources.LoadEntry(byName[typeName])
	}
	return awscc.NewDeferred(types, load, idx.Problems, origin)
}
