package funcs

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// terraform15Functions is every function Terraform 1.5 offers in
// configuration, less those Cairn leaves out on purpose (docs/functions.md
// says why): list and map (removed in Terraform 0.15) and type (console
// only). Dropping or renaming a function fails TestTableNames.
var terraform15Functions = []string{
	// numeric
	"abs", "ceil", "floor", "log", "max", "min", "parseint", "pow", "signum",
	// string
	"chomp", "endswith", "format", "formatlist", "indent", "join", "lower",
	"regex", "regexall", "replace", "split", "startswith", "strcontains",
	"strrev", "substr", "title", "trim", "trimprefix", "trimspace",
	"trimsuffix", "upper",
	// collection
	"alltrue", "anytrue", "chunklist", "coalesce", "coalescelist", "compact",
	"concat", "contains", "distinct", "element", "flatten", "index", "keys",
	"length", "lookup", "matchkeys", "merge", "one", "range", "reverse",
	"setintersection", "setproduct", "setsubtract", "setunion", "slice",
	"sort", "sum", "transpose", "values", "zipmap",
	// encoding
	"base64decode", "base64encode", "base64gzip", "csvdecode", "jsondecode",
	"jsonencode", "textdecodebase64", "textencodebase64", "urlencode",
	"yamldecode", "yamlencode",
	// filesystem
	"abspath", "basename", "dirname", "file", "filebase64", "fileexists",
	"fileset", "pathexpand", "templatefile",
	// date and time
	"formatdate", "plantimestamp", "timeadd", "timecmp", "timestamp",
	// hash and crypto
	"base64sha256", "base64sha512", "bcrypt", "filebase64sha256",
	"filebase64sha512", "filemd5", "filesha1", "filesha256", "filesha512",
	"md5", "rsadecrypt", "sha1", "sha256", "sha512", "uuid", "uuidv5",
	// IP network
	"cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets",
	// type conversion
	"can", "nonsensitive", "sensitive", "tobool", "tolist", "tomap",
	"tonumber", "toset", "tostring", "try",
}

// laterLanguageFunctions is every function Terraform (1.6 to 1.15) and
// OpenTofu (1.6 to 1.12) added after 1.5, and the built-in provider's.
var laterLanguageFunctions = []string{
	"base64gunzip", "cidrcontains", "convert", "ephemeralasnull",
	"issensitive", "templatestring", "urldecode",
	"provider::terraform::decode_tfvars", "provider::terraform::encode_expr",
	"provider::terraform::encode_tfvars",
}

func TestTableNames(t *testing.T) {
	want := append(append([]string(nil), terraform15Functions...), laterLanguageFunctions...)
	for _, name := range append(append([]string(nil), terraform15Functions...), laterLanguageFunctions...) {
		if !strings.Contains(name, "::") {
			want = append(want, "core::"+name)
		}
	}
	sort.Strings(want)
	var got []string
	for name := range Table(t.TempDir()) {
		got = append(got, name)
	}
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("function names (-want +got):\n%s", diff)
	}
}

func TestTableIsFreshEachCall(t *testing.T) {
	dir := t.TempDir()
	a := Table(dir)
	delete(a, "upper")
	if _, ok := Table(dir)["upper"]; !ok {
		t.Error("deleting from one table changed the next one")
	}
}

// TestTablePhases checks the options that differ between validate, plan and
// apply: impure functions and plantimestamp.
func TestTablePhases(t *testing.T) {
	clock := func() time.Time { return time.Date(2024, 5, 6, 7, 8, 9, 0, time.FixedZone("x", 3600)) }
	planned := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	dir := t.TempDir()

	cases := map[string]struct {
		reason string
		opts   []Option
		expr   string
		want   cty.Value
	}{
		"timestamp at apply": {
			reason: "timestamp reads the clock and reports UTC",
			opts:   []Option{WithClock(clock)},
			expr:   "timestamp()",
			want:   cty.StringVal("2024-05-06T06:08:09Z"),
		},
		"timestamp while planning": {
			reason: "impure functions are unknown before apply",
			opts:   []Option{WithClock(clock), WithPureOnly()},
			expr:   "timestamp()",
			want:   cty.UnknownVal(cty.String),
		},
		"uuid while planning": {
			reason: "impure functions are unknown before apply",
			opts:   []Option{WithPureOnly()},
			expr:   "uuid()",
			want:   cty.UnknownVal(cty.String),
		},
		"bcrypt while planning": {
			reason: "bcrypt salts randomly, so it is impure",
			opts:   []Option{WithPureOnly()},
			expr:   `bcrypt("x")`,
			want:   cty.UnknownVal(cty.String),
		},
		"pure function while planning": {
			reason: "WithPureOnly leaves pure functions alone",
			opts:   []Option{WithPureOnly()},
			expr:   `upper("x")`,
			want:   cty.StringVal("X"),
		},
		"plantimestamp with a plan": {
			reason: "plantimestamp is the plan's instant, in UTC",
			opts:   []Option{WithPlanTimestamp(planned), WithPureOnly()},
			expr:   "plantimestamp()",
			want:   cty.StringVal("2024-01-02T03:04:05Z"),
		},
		"plantimestamp without a plan": {
			reason: "validation has no plan time yet",
			expr:   "plantimestamp()",
			want:   cty.UnknownVal(cty.String),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, diags := evalExpr(t, Table(dir, tc.opts...), tc.expr)
			if diags.HasErrors() {
				t.Fatalf("%s: %s", tc.expr, diags.Error())
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("%s\n%s (-want +got):\n%s", tc.reason, tc.expr, cmp.Diff(tc.want.GoString(), got.GoString()))
			}
		})
	}
}
