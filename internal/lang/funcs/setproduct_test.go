package funcs

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestSetProductLimit: a product larger than MaxSetProductElements is
// refused before it is built (three range(1024) calls once asked go-cty
// for a billion elements in one allocation and killed the process), while
// products up to the limit, and unknown arguments, behave as go-cty's.
func TestSetProductLimit(t *testing.T) {
	list := func(n int) cty.Value {
		if n == 0 {
			return cty.ListValEmpty(cty.Number)
		}
		vs := make([]cty.Value, n)
		for i := range vs {
			vs[i] = cty.NumberIntVal(int64(i))
		}
		return cty.ListVal(vs)
	}
	f := makeSetProductFunc()
	tests := map[string]struct {
		args    []cty.Value
		wantLen int
		wantErr string
	}{
		"small":           {args: []cty.Value{list(3), list(4)}, wantLen: 12},
		"at the limit":    {args: []cty.Value{list(1000), list(1000)}, wantLen: MaxSetProductElements},
		"over the limit":  {args: []cty.Value{list(1024), list(1024), list(200)}, wantErr: "the most setproduct builds"},
		"empty":           {args: []cty.Value{list(0), list(1024), list(1024), list(1024)}, wantLen: 0},
		"unknown operand": {args: []cty.Value{cty.UnknownVal(cty.List(cty.Number)), list(2)}, wantLen: -1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := f.Call(tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantLen < 0 {
				if got.IsKnown() {
					t.Fatalf("got %#v, want unknown", got)
				}
				return
			}
			if n := got.LengthInt(); n != tc.wantLen {
				t.Fatalf("got %d elements, want %d", n, tc.wantLen)
			}
		})
	}
}
