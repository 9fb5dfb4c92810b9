package command

import (
	"context"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/pg"
	"github.com/cairn-iac/cairn/internal/diags"
)

// pgRetryEnv bounds how long a lost database connection is retried
// (a Go duration; 30s when unset). Tests shorten it.
const pgRetryEnv = "CAIRN_PG_RETRY_TIMEOUT"

// pgAttrs are backend "pg"'s arguments, with Terraform 1.5.7's types.
func pgAttrs() map[string]cty.Type {
	return map[string]cty.Type{
		"conn_str": cty.String, "schema_name": cty.String,
		"skip_schema_creation": cty.Bool, "skip_table_creation": cty.Bool, "skip_index_creation": cty.Bool,
	}
}

// openPgBackend decodes backend "pg" as Terraform 1.5.7 does (conn_str
// and schema_name falling back to PG_CONN_STR and PG_SCHEMA_NAME) and
// opens it. Diagnostics never quote conn_str: it may hold a password.
func openPgBackend(m *Meta, a backendArgs, enc backends.StateTransform) (backends.Backend, diags.Diagnostics) {
	cfg, ds := m.decodePg(a)
	if ds.HasErrors() {
		return nil, ds
	}
	cfg.Transform = enc
	b, err := pg.Open(context.Background(), cfg)
	if err != nil {
		return nil, ds.Append(diags.At(a.decl, "Failed to configure the backend \"pg\"", err.Error()))
	}
	return b, ds
}

// pgStorage is the database and schema, which name the states' place.
func pgStorage(m *Meta, a backendArgs) (string, diags.Diagnostics) {
	c, ds := m.decodePg(a)
	schema := c.Schema
	if schema == "" {
		schema = pg.DefaultSchema
	}
	return "pg\x00" + c.ConnString + "\x00" + strings.ToLower(schema), ds
}

// decodePg reads the arguments into pg's configuration.
func (m *Meta) decodePg(a backendArgs) (pg.Config, diags.Diagnostics) {
	cfg := pg.Config{ConnString: m.Getenv("PG_CONN_STR"), Schema: m.Getenv("PG_SCHEMA_NAME")}
	var ds diags.Diagnostics
	if a.has("conn_str") {
		cfg.ConnString = a.str("conn_str")
	}
	if a.has("schema_name") {
		cfg.Schema = a.str("schema_name")
	}
	cfg.SkipSchemaCreation = a.boolean("skip_schema_creation")
	cfg.SkipTableCreation = a.boolean("skip_table_creation")
	cfg.SkipIndexCreation = a.boolean("skip_index_creation")
	if a.has("schema_name") && cfg.Schema != "" {
		if err := pg.CheckSchemaName(cfg.Schema); err != nil {
			ds = ds.Append(a.diagAt("schema_name", "Invalid schema_name", err.Error()))
		}
	}
	if cfg.ConnString == "" {
		ds = ds.Append(diags.At(a.decl, "Missing conn_str",
			"The pg backend needs a connection string: set conn_str in the backend block or the PG_CONN_STR environment variable."))
	}
	if v := m.Getenv(pgRetryEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid "+pgRetryEnv, "%s is not a duration (like 30s): %s", pgRetryEnv, err))
		}
		cfg.RetryFor = d
	}
	return cfg, ds
}
