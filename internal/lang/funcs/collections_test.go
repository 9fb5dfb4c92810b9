package funcs

import (
	"math"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestCollectionFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"alltrue":       {expr: `alltrue([true, true])`, want: cty.True},
		"alltrue empty": {expr: `alltrue([])`, want: cty.True},
		"alltrue false": {expr: `alltrue([true, false])`, want: cty.False},
		"alltrue null":  {reason: "null counts as false", expr: `alltrue([true, null])`, want: cty.False},
		"alltrue unknown first": {
			reason: "elements are read in order; an unknown before any false decides",
			expr:   `alltrue([unknown_bool, false])`,
			want:   cty.UnknownVal(cty.Bool),
		},
		"alltrue false first": {expr: `alltrue([false, unknown_bool])`, want: cty.False},
		"alltrue strings":     {expr: `alltrue(["x"])`, wantErr: "a bool is required"},
		"anytrue":             {expr: `anytrue([false, true])`, want: cty.True},
		"anytrue empty":       {expr: `anytrue([])`, want: cty.False},
		"anytrue true wins":   {reason: "one true decides, unknowns or not", expr: `anytrue([unknown_bool, true])`, want: cty.True},
		"anytrue unknown":     {expr: `anytrue([unknown_bool, false])`, want: cty.UnknownVal(cty.Bool)},
		"anytrue map":         {expr: `anytrue({})`, wantErr: "list of bool required"},
		"chunklist": {
			expr: `chunklist(["a", "b", "c"], 2)`,
			want: cty.ListVal([]cty.Value{strList("a", "b"), strList("c")}),
		},
		"chunklist negative": {expr: `chunklist(["a"], -1)`, wantErr: "the size argument must be positive"},
		"coalesce":           {expr: `coalesce(null, "", "b")`, want: cty.StringVal("b")},
		"coalesce none":      {expr: `coalesce(null, "")`, wantErr: "no non-null, non-empty-string arguments"},
		"coalescelist": {
			expr: `coalescelist([], ["a"])`,
			want: cty.TupleVal([]cty.Value{cty.StringVal("a")}),
		},
		"coalescelist strings": {expr: `coalescelist("a")`, wantErr: "coalescelist arguments must be lists or tuples"},
		"compact":              {expr: `compact(["a", "", null, "b"])`, want: strList("a", "b")},
		"compact string":       {expr: `compact("a")`, wantErr: "list of string required"},
		"concat": {
			reason: "a list and a tuple concatenate to a tuple",
			expr:   `concat(strs, ["d"])`,
			want:   cty.TupleVal(strList("a", "b", "c", "d").AsValueSlice()),
		},
		"concat string":    {expr: `concat("a")`, wantErr: "all arguments must be lists or tuples"},
		"contains":         {expr: `contains(strs, "b")`, want: cty.True},
		"contains not":     {expr: `contains(strs, "z")`, want: cty.False},
		"contains string":  {expr: `contains("a", "a")`, wantErr: "argument must be list, tuple, or set"},
		"distinct":         {expr: `distinct(["a", "b", "a"])`, want: strList("a", "b")},
		"distinct string":  {expr: `distinct("a")`, wantErr: "list of dynamic required"},
		"element":          {expr: `element(strs, 1)`, want: cty.StringVal("b")},
		"element wraps":    {expr: `element(strs, 4)`, want: cty.StringVal("b")},
		"element negative": {reason: "Terraform 1.5 rejects a negative index", expr: `element(strs, -1)`, wantErr: "negative index"},
		"element empty":    {expr: `element(empty_strs, 0)`, wantErr: "cannot use element function with an empty list"},
		"element sensitive list, unknown index": {
			reason: "the list's marks survive the machinery's early unknown result",
			expr:   `element(secret_list, unknown_num)`,
			want:   sens(cty.UnknownVal(cty.String)),
		},
		"flatten": {
			expr: `flatten([["a"], [], ["b", ["c"]]])`,
			want: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")}),
		},
		"flatten string": {expr: `flatten("a")`, wantErr: "can only flatten lists, sets and tuples"},
		"index":          {expr: `index(strs, "b")`, want: num(1)},
		"index tuple":    {expr: `index(["a", 1], 1)`, want: num(1)},
		"index missing":  {expr: `index(strs, "z")`, wantErr: "item not found"},
		"index empty":    {expr: `index(empty_strs, "z")`, wantErr: "cannot search an empty list"},
		"index map":      {expr: `index(str_map, "x")`, wantErr: "argument must be a list or tuple"},
		"index unknown element": {
			reason: "an undecidable comparison before any match makes the index unknown",
			expr:   `index(["a", unknown_str, "c"], "c")`,
			want:   cty.UnknownVal(cty.Number),
		},
		"keys":          {expr: `keys(str_map)`, want: strList("a", "b")},
		"keys object":   {expr: `keys({b = 1, a = 2})`, want: cty.TupleVal(strList("a", "b").AsValueSlice())},
		"keys list":     {expr: `keys(strs)`, wantErr: "must have map or object type"},
		"length list":   {expr: `length(strs)`, want: num(3)},
		"length map":    {expr: `length(str_map)`, want: num(2)},
		"length object": {expr: `length({a = 1, b = "x"})`, want: num(2)},
		"length string": {
			reason: "characters, not bytes: é and the flag are one character each",
			expr:   `length("é🇳🇿x")`,
			want:   num(3),
		},
		"length number": {expr: `length(1)`, wantErr: "argument must be a string, a collection type, or a structural type"},
		"length unknown": {
			expr: `length(unknown_list)`,
			want: cty.UnknownVal(cty.Number).Refine().NotNull().
				NumberRangeLowerBound(cty.Zero, true).
				NumberRangeUpperBound(cty.NumberIntVal(math.MaxInt64), true).NewValue(),
		},
		"length of sensitive elements": {
			reason: "only the list's own marks reach the result, so the length can drive count",
			expr:   `length(list_of_secrets)`,
			want:   num(2),
		},
		"length of sensitive list": {expr: `length(secret_list)`, want: sens(num(2))},
		"lookup":                   {expr: `lookup(str_map, "a", "z")`, want: cty.StringVal("x")},
		"lookup default":           {expr: `lookup(str_map, "q", "z")`, want: cty.StringVal("z")},
		"lookup null default": {
			reason: "modules pass null to mean unset",
			expr:   `lookup(str_map, "q", null)`,
			want:   cty.NullVal(cty.String),
		},
		"lookup two args":         {expr: `lookup(str_map, "b")`, want: cty.StringVal("y")},
		"lookup two args missing": {expr: `lookup(str_map, "q")`, wantErr: `lookup failed to find key "q"`},
		"lookup object":           {expr: `lookup({a = 1, b = "x"}, "b")`, want: cty.StringVal("x")},
		"lookup object default":   {expr: `lookup({a = 1}, "b", true)`, want: cty.True},
		"lookup list":             {expr: `lookup(strs, "a", "z")`, wantErr: "requires a map as the first argument"},
		"lookup too many":         {expr: `lookup(str_map, "a", "b", "c")`, wantErr: "takes no more than three arguments"},
		"lookup unknown key": {
			expr: `lookup(str_map, unknown_str, "z")`,
			want: cty.UnknownVal(cty.String),
		},
		"lookup sensitive element": {
			reason: "only the chosen element's marks reach the result",
			expr:   `lookup({a = secret, b = "y"}, "b")`,
			want:   cty.StringVal("y"),
		},
		"lookup sensitive key in object": {
			reason:  "the missing key is sensitive, so the message must not name it",
			expr:    `lookup({a = 1}, secret)`,
			wantErr: hiddenReason,
		},
		"matchkeys": {
			expr: `matchkeys(["i-1", "i-2", "i-3"], ["a", "b", "a"], ["a"])`,
			want: strList("i-1", "i-3"),
		},
		"matchkeys none": {expr: `matchkeys(["i-1"], ["a"], ["b"])`, want: cty.ListValEmpty(cty.String)},
		"matchkeys length": {
			expr:    `matchkeys(["i-1", "i-2"], ["a"], ["a"])`,
			wantErr: "length of keys and values should be equal",
		},
		"matchkeys types": {expr: `matchkeys(["i-1"], [["a"]], ["a"])`, wantErr: "keys and searchset must be of the same type"},
		"matchkeys unknown key": {
			expr: `matchkeys(["i-1"], [unknown_str], ["a"])`,
			want: cty.UnknownVal(cty.List(cty.String)),
		},
		"merge": {
			expr: `merge({a = "x"}, {b = "y"}, {a = "z"})`,
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("z"), "b": cty.StringVal("y")}),
		},
		"merge keeps element marks": {
			reason: "stdlib's merge leaves each value's marks where they are",
			expr:   `merge({a = secret}, {b = "y"})`,
			want: cty.ObjectVal(map[string]cty.Value{
				"a": sens(cty.StringVal(secretText)),
				"b": cty.StringVal("y"),
			}),
		},
		"keys of a map with secrets": {
			reason: "keys cannot be sensitive, only values",
			expr:   `keys({a = secret})`,
			want:   cty.TupleVal([]cty.Value{cty.StringVal("a")}),
		},
		"concat keeps element marks": {
			expr: `concat(list_of_secrets, ["c"])`,
			want: cty.TupleVal([]cty.Value{sens(cty.StringVal(secretText)), cty.StringVal("b"), cty.StringVal("c")}),
		},
		"merge list":         {expr: `merge(strs)`, wantErr: "arguments must be maps or objects"},
		"one":                {expr: `one(["a"])`, want: cty.StringVal("a")},
		"one empty":          {expr: `one(empty_strs)`, want: cty.NullVal(cty.String)},
		"one empty tuple":    {expr: `one([])`, want: cty.NullVal(cty.DynamicPseudoType)},
		"one set":            {expr: `one(toset(["a", "a"]))`, want: cty.StringVal("a")},
		"one too many":       {expr: `one(strs)`, wantErr: "either zero or one elements"},
		"one tuple too many": {expr: `one(["a", 1])`, wantErr: "either zero or one elements"},
		"one unknown list":   {expr: `one(unknown_list)`, want: cty.UnknownVal(cty.String)},
		"range":              {expr: `range(3)`, want: cty.ListVal([]cty.Value{num(0), num(1), num(2)})},
		"range zero step":    {reason: "a zero step never reaches the end", expr: `range(1, 3, 0)`, wantErr: "more than 1024 values were generated"},
		"reverse":            {expr: `reverse(strs)`, want: strList("c", "b", "a")},
		"reverse string":     {expr: `reverse("abc")`, wantErr: "can only reverse list or tuple values"},
		"setintersection": {
			expr: `setintersection(["a", "b"], ["b", "c"])`,
			want: cty.SetVal([]cty.Value{cty.StringVal("b")}),
		},
		"setintersection string": {expr: `setintersection("a")`, wantErr: "set of dynamic required"},
		"setproduct": {
			expr: `setproduct(["a"], ["x", "y"])`,
			want: cty.ListVal([]cty.Value{
				cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("x")}),
				cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("y")}),
			}),
		},
		"setproduct none": {expr: `setproduct()`, wantErr: "at least two arguments are required"},
		"setsubtract": {
			expr: `setsubtract(["a", "b"], ["b"])`,
			want: cty.SetVal([]cty.Value{cty.StringVal("a")}),
		},
		"setsubtract arity": {expr: `setsubtract(["a"])`, wantErr: "Not enough function arguments"},
		"setunion": {
			expr: `setunion(["a"], ["b"])`,
			want: cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		},
		"setunion string": {expr: `setunion("a")`, wantErr: "set of dynamic required"},
		"slice":           {expr: `slice(strs, 1, 3)`, want: strList("b", "c")},
		"slice backwards": {expr: `slice(strs, 2, 1)`, wantErr: "start index must not be greater than end index"},
		"sort":            {expr: `sort(["b", "c", "a"])`, want: strList("a", "b", "c")},
		"sort string":     {expr: `sort("a")`, wantErr: "list of string required"},
		"sum":             {expr: `sum([1, 2.5, 3])`, want: cty.NumberFloatVal(6.5)},
		"sum set":         {expr: `sum(toset([1, 2]))`, want: num(3)},
		"sum empty":       {expr: `sum([])`, wantErr: "cannot sum an empty list"},
		"sum strings":     {expr: `sum(["a"])`, wantErr: "argument must be list, set, or tuple of number values"},
		"sum map":         {expr: `sum({a = 1})`, wantErr: "argument must be list, set, or tuple"},
		"sum unknown":     {expr: `sum([1, unknown_num])`, want: cty.UnknownVal(cty.Number)},
		"sum infinities":  {expr: `sum([1/0, -1/0])`, wantErr: "opposing infinities"},
		"transpose": {
			expr: `transpose({a = ["1", "2"], b = ["2", "3"]})`,
			want: cty.MapVal(map[string]cty.Value{
				"1": strList("a"),
				"2": strList("a", "b"),
				"3": strList("b"),
			}),
		},
		"transpose empty": {expr: `transpose({})`, want: cty.MapValEmpty(cty.List(cty.String))},
		"transpose null":  {expr: `transpose({a = [null]})`, wantErr: "must not contain null"},
		"transpose list":  {expr: `transpose(["a"])`, wantErr: "map of list of string required"},
		"values":          {expr: `values(str_map)`, want: strList("x", "y")},
		"values list":     {expr: `values(strs)`, wantErr: "values() requires a map as the first argument"},
		"zipmap": {
			expr: `zipmap(["a", "b"], [1, 2])`,
			want: cty.ObjectVal(map[string]cty.Value{"a": num(1), "b": num(2)}),
		},
		"zipmap lengths": {expr: `zipmap(["a"], [1, 2])`, wantErr: "number of keys (1) does not match number of values (2)"},
	})
}
