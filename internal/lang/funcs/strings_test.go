package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestStringFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"chomp":         {expr: `chomp("hello\n\n")`, want: cty.StringVal("hello")},
		"chomp list":    {expr: `chomp(["a"])`, wantErr: "string required"},
		"endswith":      {expr: `endswith("hello world", "world")`, want: cty.True},
		"endswith not":  {expr: `endswith("hello world", "hello")`, want: cty.False},
		"endswith args": {expr: `endswith("hello")`, wantErr: "Not enough function arguments"},
		"endswith unknown": {
			reason: "an unknown argument gives an unknown bool",
			expr:   `endswith(unknown_str, "x")`,
			want:   cty.UnknownVal(cty.Bool),
		},
		"format":          {expr: `format("%s-%03d", "a", 7)`, want: cty.StringVal("a-007")},
		"format bad verb": {expr: `format("%d", "x")`, wantErr: "unsupported value for \"%d\""},
		"formatlist": {
			expr: `formatlist("%s=%s", ["a", "b"], "x")`,
			want: strList("a=x", "b=x"),
		},
		"formatlist mismatched": {expr: `formatlist("%s%s", ["a"], ["b", "c"])`, wantErr: "argument 2 has length 2"},
		"indent":                {expr: `indent(2, "a\nb")`, want: cty.StringVal("a\n  b")},
		"indent string":         {expr: `indent("x", "a")`, wantErr: "a number is required"},
		"join":                  {expr: `join(",", ["a", "b"])`, want: cty.StringVal("a,b")},
		"join no lists":         {expr: `join(",")`, wantErr: "at least one list is required"},
		"join sensitive element": {
			reason: "a sensitive element makes the whole join sensitive",
			expr:   `join(",", list_of_secrets)`,
			want:   sens(cty.StringVal(secretText + ",b")),
		},
		"lower":           {expr: `lower("HeLLo")`, want: cty.StringVal("hello")},
		"lower list":      {expr: `lower([])`, wantErr: "string required"},
		"regex":           {expr: `regex("[a-z]+", "123abc456")`, want: cty.StringVal("abc")},
		"regex no match":  {expr: `regex("[a-z]+", "123")`, wantErr: "pattern did not match"},
		"regexall":        {expr: `regexall("[a-z]+", "a1b2")`, want: strList("a", "b")},
		"regexall bad":    {expr: `regexall("[", "x")`, wantErr: "invalid regexp pattern"},
		"replace literal": {expr: `replace("1+2+3", "+", "-")`, want: cty.StringVal("1-2-3")},
		"replace regex": {
			reason: "a /slashed/ substr is a regular expression whose groups the replacement can use",
			expr:   `replace("hello world", "/w(or)ld/", "$1")`,
			want:   cty.StringVal("hello or"),
		},
		"replace single slash": {
			reason: "a lone slash is an ordinary substring",
			expr:   `replace("a/b", "/", "-")`,
			want:   cty.StringVal("a-b"),
		},
		"replace bad regex": {expr: `replace("x", "/[/", "")`, wantErr: "error parsing regexp"},
		"replace sensitive": {
			expr: `replace(secret, "2", "3")`,
			want: sens(cty.StringVal("hunter3")),
		},
		"split":             {expr: `split(",", "a,b")`, want: strList("a", "b")},
		"split arity":       {expr: `split(",")`, wantErr: "Not enough function arguments"},
		"startswith":        {expr: `startswith("hello", "he")`, want: cty.True},
		"startswith not":    {expr: `startswith("hello", "lo")`, want: cty.False},
		"startswith list":   {expr: `startswith([], "lo")`, wantErr: "string required"},
		"strcontains":       {expr: `strcontains("hello", "ell")`, want: cty.True},
		"strcontains case":  {reason: "no case folding", expr: `strcontains("hello", "ELL")`, want: cty.False},
		"strcontains arity": {expr: `strcontains("hello")`, wantErr: "Not enough function arguments"},
		"strcontains sensitive": {
			expr: `strcontains(secret, "hunt")`,
			want: sens(cty.True),
		},
		"strrev":          {expr: `strrev("abc")`, want: cty.StringVal("cba")},
		"strrev list":     {expr: `strrev([])`, wantErr: "string required"},
		"substr":          {expr: `substr("hello world", 1, 4)`, want: cty.StringVal("ello")},
		"substr string":   {expr: `substr("hello", "a", 1)`, wantErr: "a number is required"},
		"title":           {expr: `title("hello world")`, want: cty.StringVal("Hello World")},
		"title list":      {expr: `title([])`, wantErr: "string required"},
		"trim":            {expr: `trim("?!hello?!", "!?")`, want: cty.StringVal("hello")},
		"trim arity":      {expr: `trim("x")`, wantErr: "Not enough function arguments"},
		"trimprefix":      {expr: `trimprefix("helloworld", "hello")`, want: cty.StringVal("world")},
		"trimprefix list": {expr: `trimprefix([], "hello")`, wantErr: "string required"},
		"trimspace":       {expr: `trimspace("  hi\n")`, want: cty.StringVal("hi")},
		"trimspace list":  {expr: `trimspace([])`, wantErr: "string required"},
		"trimsuffix":      {expr: `trimsuffix("helloworld", "world")`, want: cty.StringVal("hello")},
		"trimsuffix list": {expr: `trimsuffix([], "x")`, wantErr: "string required"},
		"upper":           {expr: `upper("hi")`, want: cty.StringVal("HI")},
		"upper list":      {expr: `upper([])`, wantErr: "string required"},
		"upper unknown": {
			reason: "an unknown argument gives an unknown string",
			expr:   `upper(unknown_str)`,
			want:   cty.UnknownVal(cty.String).RefineNotNull(),
		},
		"upper sensitive": {
			reason: "sensitive in, sensitive out",
			expr:   `upper(secret)`,
			want:   sens(cty.StringVal("HUNTER2")),
		},
	})
}
