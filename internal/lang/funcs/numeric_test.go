package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestNumericFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"abs":              {expr: "abs(-3.5)", want: cty.NumberFloatVal(3.5)},
		"abs not a number": {expr: `abs("x")`, wantErr: "a number is required"},
		"abs unknown": {
			reason: "an unknown argument gives an unknown number",
			expr:   "abs(unknown_num)",
			want:   cty.UnknownVal(cty.Number).RefineNotNull(),
		},
		"abs sensitive": {
			reason: "a sensitive argument gives a sensitive result",
			expr:   "abs(secret_num)",
			want:   sens(num(42)),
		},
		"abs sensitive unknown": {
			reason: "cty's machinery drops the marks of an unknown marked argument; markSafe restores them",
			expr:   "abs(secret_unknown_num)",
			want:   sens(cty.UnknownVal(cty.Number).RefineNotNull()),
		},
		"ceil":            {expr: "ceil(1.2)", want: num(2)},
		"ceil no args":    {expr: "ceil()", wantErr: "Not enough function arguments"},
		"floor":           {expr: "floor(1.8)", want: num(1)},
		"floor string":    {expr: `floor("a")`, wantErr: "a number is required"},
		"log":             {expr: "log(8, 2)", want: num(3)},
		"log of negative": {reason: "NaN is an error, not a panic trace", expr: "log(-1, 10)", wantErr: "the result is not a real number"},
		"max":             {expr: "max(1, 5, 3)", want: num(5)},
		"max none":        {expr: "max()", wantErr: "must pass at least one number"},
		"min":             {expr: "min(4, 2, 3)", want: num(2)},
		"min string":      {expr: `min("a")`, wantErr: "a number is required"},
		"parseint":        {expr: `parseint("ff", 16)`, want: num(255)},
		"parseint bad":    {expr: `parseint("zz", 10)`, wantErr: "cannot parse"},
		"parseint sensitive": {
			reason:  "the library's message quotes the input; it must not for a secret",
			expr:    `parseint(secret, 10)`,
			wantErr: hiddenReason,
		},
		"pow":          {expr: "pow(2, 10)", want: num(1024)},
		"pow NaN":      {expr: "pow(-1, 0.5)", wantErr: "the result is not a real number"},
		"signum":       {expr: "signum(-7)", want: num(-1)},
		"signum wrong": {expr: "signum([])", wantErr: "number required"},
	})
}
