package command

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/pg"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// pgRetryEnv bounds how long a lost database connection is retried
// (a Go duration; 30s when unset). Tests shorten it.
const pgRetryEnv = "CAIRN_PG_RETRY_TIMEOUT"

// pgBackend decodes backend "pg" as Terraform 1.5.7 does (conn_str and
// schema_name falling back to PG_CONN_STR and PG_SCHEMA_NAME) and opens
// it. Diagnostics never quote conn_str: it may hold a password.
func (m *Meta) pgBackend(blk *configs.Backend, enc backends.StateTransform) (backends.Backend, diags.Diagnostics) {
	cfg, ds := m.decodePg(blk)
	if ds.HasErrors() {
		return nil, ds
	}
	cfg.Transform = enc
	b, err := pg.Open(context.Background(), cfg)
	if err != nil {
		return nil, ds.Append(diags.At(blk.TypeRange, "Failed to configure the backend \"pg\"", err.Error()))
	}
	return b, ds
}

// decodePg reads the block's attributes.
func (m *Meta) decodePg(blk *configs.Backend) (pg.Config, diags.Diagnostics) {
	cfg := pg.Config{ConnString: m.Getenv("PG_CONN_STR"), Schema: m.Getenv("PG_SCHEMA_NAME")}
	attrs, hd := blk.Config.JustAttributes()
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	strs := map[string]*string{"conn_str": &cfg.ConnString, "schema_name": &cfg.Schema}
	bools := map[string]*bool{"skip_schema_creation": &cfg.SkipSchemaCreation, "skip_table_creation": &cfg.SkipTableCreation, "skip_index_creation": &cfg.SkipIndexCreation}
	for name, a := range attrs {
		switch {
		case strs[name] != nil:
			ds = ds.Append(decodeBackendAttr(a, cty.String, strs[name]))
		case bools[name] != nil:
			ds = ds.Append(decodeBackendAttr(a, cty.Bool, bools[name]))
		default:
			ds = ds.Append(diags.At(a.NameRange, "Unsupported backend argument",
				fmt.Sprintf("The pg backend does not take an argument named %q.", name)))
		}
	}
	if a := attrs["schema_name"]; a != nil && cfg.Schema != "" && !ds.HasErrors() {
		if err := pg.CheckSchemaName(cfg.Schema); err != nil {
			ds = ds.Append(diags.At(a.Expr.Range(), "Invalid schema_name", err.Error()))
		}
	}
	if cfg.ConnString == "" && !ds.HasErrors() {
		ds = ds.Append(diags.At(blk.TypeRange, "Missing conn_str",
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

// decodeBackendAttr evaluates a backend argument, which may not refer to
// anything, into dst of type ty. The value is never quoted in a
// diagnostic.
func decodeBackendAttr(a *hcl.Attribute, ty cty.Type, dst any) diags.Diagnostics {
	var ds diags.Diagnostics
	v, vd := a.Expr.Value(nil)
	if ds = ds.Append(vd); vd.HasErrors() {
		return ds
	}
	v, err := convertBackendValue(v, ty)
	if err == nil {
		err = gocty.FromCtyValue(v, dst)
	}
	if err != nil {
		return ds.Append(diags.At(a.Expr.Range(), "Invalid backend "+a.Name,
			fmt.Sprintf("The pg backend's %s must be a %s.", a.Name, ty.FriendlyName())))
	}
	return ds
}

func convertBackendValue(v cty.Value, ty cty.Type) (cty.Value, error) {
	if v.IsNull() || !v.IsKnown() {
		return v, fmt.Errorf("no value")
	}
	if v.Type() == ty {
		return v, nil
	}
	if ty == cty.Bool && v.Type() == cty.String {
		switch v.AsString() {
		case "true":
			return cty.True, nil
		case "false":
			return cty.False, nil
		}
	}
	return v, fmt.Errorf("wrong type")
}
