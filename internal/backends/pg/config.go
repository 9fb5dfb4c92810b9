package pg

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
)

// DefaultSchema is Terraform's default schema_name.
const DefaultSchema = "terraform_remote_state"

// Config is backend "pg"'s configuration, decoded by the command layer
// (which also applies PG_CONN_STR and PG_SCHEMA_NAME).
type Config struct {
	// ConnString is a postgres:// URL or key=value string. Secret: it
	// never appears in an error.
	ConnString string
	// Schema is where the tables live; empty means DefaultSchema.
	Schema string
	// SkipSchemaCreation, SkipTableCreation and SkipIndexCreation are
	// Terraform's skip_* settings, for databases where the user lacks the
	// privileges and created the objects beforehand.
	SkipSchemaCreation, SkipTableCreation, SkipIndexCreation bool
	// Transform, when set, turns state bytes into stored bytes and back
	// (state encryption).
	Transform backends.StateTransform
	// RetryFor is how long a lost connection is retried before the run
	// gives up; zero means 30 seconds.
	RetryFor time.Duration
}

// plainIdent is what Terraform's unquoted use of schema_name accepts as
// one identifier without quoting.
var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)

// CheckSchemaName reports a schema name that is not a plain SQL
// identifier. Terraform splices the name into its SQL unquoted, so a
// plain identifier (folded to lower case by the server) is all that names
// the same schema for both tools.
func CheckSchemaName(name string) error {
	if !plainIdent.MatchString(name) || len(name) > 63 {
		return fmt.Errorf("%q is not a plain SQL identifier (letters, digits, underscores and dollar signs, starting with a letter or underscore, at most 63 characters)", name)
	}
	return nil
}

// schemaIdent is the schema as Terraform's unquoted SQL names it: folded
// to lower case, and quoted here so it is one identifier whatever it is.
func (c Config) schemaIdent() string {
	s := c.Schema
	if s == "" {
		s = DefaultSchema
	}
	return `"` + strings.ToLower(s) + `"`
}

func (c Config) retryFor() time.Duration {
	if c.RetryFor <= 0 {
		return 30 * time.Second
	}
	return c.RetryFor
}
