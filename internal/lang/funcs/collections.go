package funcs

import (
	"github.com/hashicorp/go-cty-funcs/collection"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// collectionFunctions returns Terraform's collection functions.
//
// go-cty's stdlib supplies most of them. coalesce comes from go-cty-funcs,
// whose version, like Terraform's, also skips empty strings (stdlib's skips
// only nulls). Cairn writes the ones neither library has, or has with other
// semantics: alltrue and anytrue (bool_reduce.go), element (a guard on
// stdlib's, element.go), distinct (linear
// where stdlib's is quadratic; distinct.go), index (stdlib's "index" is Terraform's list[i];
// index.go), length (also counts characters in strings; length.go), lookup
// (optional and nullable default; lookup.go), matchkeys, one, sum and
// transpose (each in its own file).
func collectionFunctions() map[string]function.Function {
	return map[string]function.Function{
		"alltrue":         makeAllTrueFunc(),
		"anytrue":         makeAnyTrueFunc(),
		"chunklist":       stdlib.ChunklistFunc,
		"coalesce":        collection.CoalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        stdlib.ContainsFunc,
		"distinct":        makeDistinctFunc(),
		"element":         makeElementFunc(),
		"flatten":         stdlib.FlattenFunc,
		"index":           makeIndexFunc(),
		"keys":            stdlib.KeysFunc,
		"length":          makeLengthFunc(),
		"lookup":          makeLookupFunc(),
		"matchkeys":       makeMatchkeysFunc(),
		"merge":           stdlib.MergeFunc,
		"one":             makeOneFunc(),
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      makeSetProductFunc(),
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"sum":             makeSumFunc(),
		"transpose":       makeTransposeFunc(),
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,
	}
}
