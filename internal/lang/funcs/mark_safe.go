package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/configschema"
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
// The price is a second type check per call (see BenchmarkCallViaHCL).
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
	return function.New(&function.Spec{
		Description: fn.Description(),
		Params:      outParams,
		VarParam:    outVar,
		Type: func(args []cty.Value) (cty.Type, error) {
			ty, err := fn.ReturnTypeForValues(args)
			return ty, hideIfSensitive(err, args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
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
	return p
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
