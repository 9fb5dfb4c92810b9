package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// timestamp and plantimestamp are covered with their options in
// TestTablePhases.
func TestDateTimeFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"formatdate": {
			expr: `formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")`,
			want: cty.StringVal("02 Jan 2018 23:12 UTC"),
		},
		"formatdate bad timestamp": {expr: `formatdate("YYYY", "yesterday")`, wantErr: "not a valid RFC3339 timestamp"},
		"formatdate sensitive timestamp": {
			reason:  "cty quotes the bad timestamp",
			expr:    `formatdate("YYYY", secret)`,
			wantErr: hiddenReason,
		},
		"timeadd":        {expr: `timeadd("2017-11-22T00:00:00Z", "10m")`, want: cty.StringVal("2017-11-22T00:10:00Z")},
		"timeadd bad":    {expr: `timeadd("2017-11-22T00:00:00Z", "10 parsecs")`, wantErr: "time: unknown unit"},
		"timecmp before": {expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:01Z")`, want: num(-1)},
		"timecmp after":  {expr: `timecmp("2017-11-22T00:00:01Z", "2017-11-22T00:00:00Z")`, want: num(1)},
		"timecmp instant": {
			reason: "the same instant in different offsets is equal",
			expr:   `timecmp("2017-11-22T01:00:00+01:00", "2017-11-22T00:00:00Z")`,
			want:   num(0),
		},
		"timecmp bad second":  {expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22")`, wantErr: `Invalid value for "timestamp_b" parameter: not a valid RFC3339 timestamp`},
		"timestamp arity":     {expr: `timestamp("now")`, wantErr: "Too many function arguments"},
		"plantimestamp arity": {expr: `plantimestamp(1)`, wantErr: "Too many function arguments"},
		"timecmp unknown":     {expr: `timecmp(unknown_str, "2017-11-22T00:00:00Z")`, want: cty.UnknownVal(cty.Number)},
	})
}
