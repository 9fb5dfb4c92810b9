package plugins

import (
	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/plugincache"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

// schemaStore keeps awscc's package schema in the plugin cache under a
// key of everything it is built from.
type schemaStore struct {
	cache plugincache.Cache
	name  string
}

var _ server.SchemaStore = schemaStore{}

// awsccSchemaStore returns the store of awscc's package schema over
// src's types that types names: the same schema set, types and build
// (plugincache.Key) give the same schema, so a launch answers GetSchema
// from the store without translating 1,489 schemas first. ok is false
// when dir is "" or the schema set cannot be digested.
func awsccSchemaStore(dir string, src cfnsources.Sources, types string) (schemaStore, bool) {
	if dir == "" {
		return schemaStore{}, false
	}
	digest, err := src.Digest()
	if err != nil {
		return schemaStore{}, false
	}
	key := plugincache.Key("pulumi-resource-awscc", Version, digest, types)
	return schemaStore{cache: plugincache.Open(dir), name: "pulumi-awscc-" + key + ".schema.json"}, true
}

func (s schemaStore) Load() ([]byte, bool) { return s.cache.Read(s.name) }

// keptSchemas is how many package schemas (schema sets, types, builds)
// stay in the cache, at most 180 MB.
const keptSchemas = 8

func (s schemaStore) Store(schema []byte) {
	if s.cache.Write(s.name, schema) == nil {
		s.cache.Prune("pulumi-awscc-*.schema.json", keptSchemas)
	}
}
