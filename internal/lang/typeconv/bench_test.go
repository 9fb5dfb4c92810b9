package typeconv

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

func stringTuple(n int) cty.Value {
	elems := make([]cty.Value, n)
	for i := range elems {
		elems[i] = cty.StringVal(fmt.Sprintf("k%d", i))
	}
	return cty.TupleVal(elems)
}

// BenchmarkConvert converts a tuple of n strings to a set and to a list,
// the work of toset and tolist. The "cty" variants are go-cty's convert,
// quadratic in n, so they run at the smaller sizes only.
func BenchmarkConvert(b *testing.B) {
	for _, n := range []int{1_000, 20_000, 100_000} {
		v := stringTuple(n)
		for name, want := range map[string]cty.Type{"set": cty.Set(cty.DynamicPseudoType), "list": cty.List(cty.DynamicPseudoType)} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Convert(v, want); err != nil {
						b.Fatal(err)
					}
				}
			})
			if n > 1_000 {
				continue
			}
			b.Run(fmt.Sprintf("cty/%s/%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := convert.Convert(v, want); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
