package command

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/backends/pg"
	"github.com/cairn-iac/cairn/internal/configs"
)

// TestDecodePg checks backend "pg"'s arguments and environment, and
// that errors point at the argument without quoting conn_str.
func TestDecodePg(t *testing.T) {
	for name, tc := range map[string]struct {
		block string
		env   map[string]string
		want  pg.Config
		// wantErr is "summary@line:col" of the one error expected.
		wantErr string
	}{
		"environment only": {
			block: `backend "pg" {}`,
			env:   map[string]string{"PG_CONN_STR": "postgres://u:secret@h/db", "PG_SCHEMA_NAME": "team"},
			want:  pg.Config{ConnString: "postgres://u:secret@h/db", Schema: "team"},
		},
		"block over environment": {
			block: `backend "pg" {
    conn_str             = "postgres://h/db"
    schema_name          = "other"
    skip_schema_creation = true
    skip_table_creation  = "true"
    skip_index_creation  = false
  }`,
			env:  map[string]string{"PG_CONN_STR": "postgres://env/db", "CAIRN_PG_RETRY_TIMEOUT": "2s"},
			want: pg.Config{ConnString: "postgres://h/db", Schema: "other", SkipSchemaCreation: true, SkipTableCreation: true, RetryFor: 2 * time.Second},
		},
		"unknown argument": {
			block: `backend "pg" {
    conn_str = "postgres://h/db"
    table    = "x"
  }`,
			wantErr: "Unsupported backend argument@4:5",
		},
		"schema not an identifier": {
			block: `backend "pg" {
    conn_str    = "postgres://h/db"
    schema_name = "a; drop"
  }`,
			wantErr: "Invalid schema_name@4:19",
		},
		"wrong type": {
			block: `backend "pg" {
    conn_str            = "postgres://h/db"
    skip_index_creation = "maybe"
  }`,
			wantErr: "Invalid backend skip_index_creation@4:27",
		},
		"no connection string": {
			block:   `backend "pg" {}`,
			wantErr: "Missing conn_str@2:11",
		},
	} {
		t.Run(name, func(t *testing.T) {
			src := fmt.Sprintf("terraform {\n  %s\n}\n", tc.block)
			mod, ds := configs.LoadFiles(t.TempDir(), map[string][]byte{"main.tf": []byte(src)})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			m := &Meta{Streams: Streams{Getenv: func(k string) string { return tc.env[k] }}}
			args, ds := decodeBackendArgs(mod.Backend, nil)
			got, pds := m.decodePg(args)
			ds = ds.Append(pds)
			if tc.wantErr != "" {
				if len(ds) != 1 || ds[0].Subject == nil {
					t.Fatalf("got %v, want one error %s", ds, tc.wantErr)
				}
				r := ds[0].Subject.Start
				if gotErr := fmt.Sprintf("%s@%d:%d", ds[0].Summary, r.Line, r.Column); gotErr != tc.wantErr {
					t.Errorf("error = %s, want %s", gotErr, tc.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}
