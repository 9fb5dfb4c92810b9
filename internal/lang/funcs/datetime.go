package funcs

import (
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// dateTimeFunctions returns Terraform's date and time functions: formatdate
// and timeadd from go-cty's stdlib; timecmp, timestamp and plantimestamp are
// Cairn's. now is the clock timestamp reads; planTime is the instant
// plantimestamp returns, the zero time meaning "no plan yet".
func dateTimeFunctions(now func() time.Time, planTime time.Time) map[string]function.Function {
	return map[string]function.Function{
		"formatdate":    stdlib.FormatDateFunc,
		"plantimestamp": makePlanTimestampFunc(planTime),
		"timeadd":       stdlib.TimeAddFunc,
		"timecmp":       makeTimeCmpFunc(),
		"timestamp":     makeTimestampFunc(now),
	}
}

// makeTimestampFunc builds timestamp(): the current UTC time in RFC 3339
// form, read from now at each call. It is impure: Table makes it return an
// unknown string unless the table is for apply (WithPureOnly).
func makeTimestampFunc(now func() time.Time) function.Function {
	return function.New(&function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.StringVal(now().UTC().Format(time.RFC3339)), nil
		},
	})
}

// makePlanTimestampFunc builds plantimestamp(): the instant the plan was
// made, in UTC RFC 3339 form, the same during plan and apply. Before there is
// a plan (validation) the instant is unknown, and so is the result.
func makePlanTimestampFunc(planTime time.Time) function.Function {
	return function.New(&function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			if planTime.IsZero() {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(planTime.UTC().Format(time.RFC3339)), nil
		},
	})
}

// makeTimeCmpFunc builds timecmp(timestamp_a, timestamp_b): -1, 0 or 1 as
// the first RFC 3339 timestamp is before, at the same instant as, or after
// the second. Instants are compared, so differing UTC offsets for the same
// moment compare equal.
func makeTimeCmpFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "timestamp_a", Type: cty.String},
			{Name: "timestamp_b", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.Number),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			var ts [2]time.Time
			for i, a := range args {
				t, err := time.Parse(time.RFC3339, a.AsString())
				if err != nil {
					return cty.NilVal, function.NewArgErrorf(i, "not a valid RFC3339 timestamp: %w", err)
				}
				ts[i] = t
			}
			return cty.NumberIntVal(int64(ts[0].Compare(ts[1]))), nil
		},
	})
}
