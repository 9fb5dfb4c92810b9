package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// makeDistinctFunc builds distinct(list) with go-cty stdlib's parameters,
// result type and semantics (the first of each run of equal elements, in
// order; an unknown anywhere makes the whole result unknown), in linear
// time. stdlib compares each element with every one kept so far, so
// distinct of 20,000 strings took over a minute. Here elements are grouped
// by their hash (the one cty's sets use, equal for equal values) and
// compared only within a group.
func makeDistinctFunc() function.Function {
	lib := stdlib.DistinctFunc
	return function.New(&function.Spec{
		Description: lib.Description(),
		Params:      lib.Params(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return args[0].Type(), nil
		},
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			list := args[0]
			if !list.IsWhollyKnown() {
				return cty.UnknownVal(retType), nil
			}
			kept := distinctElements(list)
			if len(kept) == 0 {
				return cty.ListValEmpty(retType.ElementType()), nil
			}
			return cty.ListVal(kept), nil
		},
	})
}

// distinctElements returns the elements of list, a wholly known, unmarked
// list, without repeats.
func distinctElements(list cty.Value) []cty.Value {
	var kept []cty.Value
	byHash := make(map[int][]int, list.LengthInt())
	for it := list.ElementIterator(); it.Next(); {
		_, v := it.Element()
		h := v.Hash()
		if containsEqual(kept, byHash[h], v) {
			continue
		}
		byHash[h] = append(byHash[h], len(kept))
		kept = append(kept, v)
	}
	return kept
}

// containsEqual reports whether any of kept at the given positions equals
// v.
func containsEqual(kept []cty.Value, positions []int, v cty.Value) bool {
	for _, i := range positions {
		if kept[i].Equals(v).True() {
			return true
		}
	}
	return false
}
