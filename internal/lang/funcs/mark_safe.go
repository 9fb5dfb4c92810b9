package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/lang/typeconv"
)

// hiddenReason replaces the message of an error from a call that had a
// sensitive argument. hcl renders it as `Invalid value for "x" parameter:
// <reason>.` or `Call to function "f" failed: <reason>.`
const hiddenReason = "the reason is hidden because it could reveal a sensitive value"

// markSafe returns fn with two repairs to how marked values fare, so that
// every function in the table, from whatever library, keeps Cairn's promise
// that sensitive values never reach output.
//
// First, when a call fails and any argument holds a sensitive value, at any
// depth, the error says so instead of giving fn's message. cty's machinery
// unmarks arguments before a function runs, so the function cannot know
// which values are secret, and many library messages quote their input
// (tobool, parseint, base64decode, cidrhost, the file functions' paths...).
//
// Second, it restores marks that cty's machinery drops: when an argument is
// unknown (or of unknown type) and its parameter does not accept that, the
// machinery returns an unknown result without calling fn, carrying only the
// marks of parameters that do not take marked values. The marks of the
// others, which fn would have propagated itself, are lost, so that
// abs(sensitive unknown) would be merely unknown. markSafe adds them back.
//
// Otherwise results are exactly fn's: the wrapper passes arguments through,
// marks and all, and fn's own machinery unmarks them and marks the result as
// it always does. For that the wrapper's parameters accept everything
// (marked, unknown, null, dynamically typed values) and leave each check to
// fn; their names and types are fn's, so hcl converts arguments as before.
// The wrapper's result type is any type, so that fn's type check runs once,
// inside fn.Call. The price is a second function call (see
// BenchmarkCallViaHCL).
//
// The exception is a parameter that is a list, set or map (distinct's,
// contains', setunion's of any type; sort's, join's, zipmap's of strings):
// converting a tuple of n elements to one is quadratic in go-cty's
// convert, which hcl uses. The wrapper
// declares such a parameter of any type and converts the argument itself
// with typeconv, in linear time, giving the same value and, for a value
// that does not convert, the same "Invalid value for ... parameter" error.
func markSafe(fn function.Function) function.Function {
	params, varParam := fn.Params(), fn.VarParam()
	outParams := make([]function.Parameter, len(params))
	for i, p := range params {
		outParams[i] = passThrough(p)
	}
	var outVar *function.Parameter
	if varParam != nil {
		p := passThrough(*varParam)
		outVar = &p
	}
	param := func(i int) *function.Parameter {
		if i < len(params) {
			return &params[i]
		}
		return varParam
	}
	return function.New(&function.Spec{
		Description: fn.Description(),
		Params:      outParams,
		VarParam:    outVar,
		// fn's own machinery checks the arguments and the result's type
		// when Impl calls it; checking them here as well would walk every
		// argument once more (a set sorts itself on each walk).
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			args, err := convertArgs(param, args)
			if err != nil {
				return cty.NilVal, err
			}
			v, err := fn.Call(args)
			if err != nil {
				return cty.NilVal, hideIfSensitive(err, args)
			}
			return v.WithMarks(droppedMarks(params, varParam, args)...), nil
		},
	})
}

func passThrough(p function.Parameter) function.Parameter {
	p.AllowMarked = true
	p.AllowUnknown = true
	p.AllowNull = true
	p.AllowDynamicType = true
	if convertsItself(p) {
		p.Type = cty.DynamicPseudoType
	}
	return p
}

// convertsItself reports whether markSafe's wrapper converts arguments for
// p itself rather than leaving it to hcl: p is a list, set or map (of any
// type, or of strings as sort's and join's are).
func convertsItself(p function.Parameter) bool {
	return p.Type.IsCollectionType()
}

// convertArgs converts the arguments whose parameters convertsItself
// accepts, as hcl would have converted them; param(i) is fn's parameter for
// argument i. An argument that does not convert is an error naming it, which
// hcl reports as it reports its own conversion errors. The errors name
// types only, never values, so they need no hiding.
func convertArgs(param func(int) *function.Parameter, args []cty.Value) ([]cty.Value, error) {
	var out []cty.Value
	for i, a := range args {
		p := param(i)
		if !convertsItself(*p) {
			continue
		}
		v, err := typeconv.Convert(a, p.Type)
		if err != nil {
			return nil, function.NewArgError(i, err)
		}
		if out == nil {
			out = append([]cty.Value(nil), args...)
		}
		out[i] = v
	}
	if out == nil {
		return args, nil
	}
	return out, nil
}

// hideIfSensitive returns err, or an error with the same argument index and
// hiddenReason as its message if any of args is sensitive.
func hideIfSensitive(err error, args []cty.Value) error {
	if err == nil || !anySensitive(args) {
		return err
	}
	var argErr function.ArgError
	if errors.As(err, &argErr) {
		return function.NewArgErrorf(argErr.Index, hiddenReason)
	}
	return errors.New(hiddenReason)
}

func anySensitive(args []cty.Value) bool {
	for _, a := range args {
		if a.HasMarkDeep(configschema.SensitiveMark) {
			return true
		}
	}
	return false
}

// droppedMarks returns the marks cty's machinery drops when it answers a
// call with an unknown value without running fn: those of every argument
// whose parameter takes marked values. It returns nothing when fn ran.
// params and varParam are fn's.
func droppedMarks(params []function.Parameter, varParam *function.Parameter, args []cty.Value) []cty.ValueMarks {
	param := func(i int) *function.Parameter {
		if i < len(params) {
			return &params[i]
		}
		return varParam
	}
	shortCut := false
	for i, a := range args {
		p := param(i)
		if (!p.AllowUnknown && !a.IsKnown()) || (!p.AllowDynamicType && a.Type() == cty.DynamicPseudoType) {
			shortCut = true
			break
		}
	}
	if !shortCut {
		return nil
	}
	var marks []cty.ValueMarks
	for i, a := range args {
		if param(i).AllowMarked {
			_, m := a.UnmarkDeep()
			marks = append(marks, m)
		}
	}
	return marks
}

// MarkSafe is markSafe for functions from outside the table: those of
// plugin providers (provider::NAME::FUNC), which the engine builds per
// module and which must keep the same promise about sensitive values.
func MarkSafe(fn function.Function) function.Function { return markSafe(fn) }
