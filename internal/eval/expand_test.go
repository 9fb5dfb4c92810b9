package eval

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// expandVars are the variables every Expand case can refer to.
func expandVars() map[string]cty.Value {
	s := configschema.SensitiveMark
	return map[string]cty.Value{
		"n":            cty.NumberIntVal(2),
		"unknown_n":    cty.UnknownVal(cty.Number),
		"secret_n":     cty.NumberIntVal(2).Mark(s),
		"map":          cty.MapVal(map[string]cty.Value{"b": cty.NumberIntVal(2), "a": cty.NumberIntVal(1)}),
		"unknown_map":  cty.UnknownVal(cty.Map(cty.String)),
		"unknown_vals": cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)}),
		"secret_map":   cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x")}).Mark(s),
		"secret_vals":  cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x").Mark(s)}),
		"secret_key":   cty.StringVal("k").Mark(s),
		"unknown_s":    cty.UnknownVal(cty.String),
	}
}

type expansionView struct {
	Mode  instances.Mode
	Count int
	Keys  []addrs.InstanceKey
	Each  map[string]cty.Value
}

func viewExpansion(e *instances.Expansion) *expansionView {
	if e == nil {
		return nil
	}
	v := &expansionView{Mode: e.Mode(), Count: e.Count(), Keys: e.Keys()}
	if e.Mode() == instances.ForEach {
		v.Each = map[string]cty.Value{}
		for _, k := range e.EachKeys() {
			v.Each[k], _ = e.EachValue(k)
		}
	}
	return v
}

func TestExpand(t *testing.T) {
	ints := func(n int) []addrs.InstanceKey {
		out := make([]addrs.InstanceKey, n)
		for i := range out {
			out[i] = addrs.IntKey(i)
		}
		return out
	}
	cases := map[string]struct {
		reason       string
		meta         string // the count or for_each line
		allowUnknown bool
		want         *expansionView
		wantDiags    []diagView
	}{
		"Single": {
			meta: ``,
			want: &expansionView{Mode: instances.Single, Keys: []addrs.InstanceKey{addrs.NoKey}},
		},
		"Count": {
			meta: `count = var.n + 1`,
			want: &expansionView{Mode: instances.Count, Count: 3, Keys: ints(3)},
		},
		"CountZero": {
			meta: `count = 0`,
			want: &expansionView{Mode: instances.Count, Keys: ints(0)},
		},
		"CountString": {
			reason: "count converts like any number argument.",
			meta:   `count = "2"`,
			want:   &expansionView{Mode: instances.Count, Count: 2, Keys: ints(2)},
		},
		"CountNull": {
			meta:      `count = null`,
			wantDiags: []diagView{errAt("Invalid count argument", "main.tf:3:11")},
		},
		"CountNegative": {
			meta:      `count = -1`,
			wantDiags: []diagView{errAt("Invalid count argument", "main.tf:3:11")},
		},
		"CountOverLimit": {
			reason:    "one past MaxInstances is refused, not planned",
			meta:      `count = 100001`,
			wantDiags: []diagView{errAt("Invalid count argument", "main.tf:3:11")},
		},
		"CountHuge": {
			reason:    "count = 1e9 grew memory until the process was killed",
			meta:      `count = 1e9`,
			wantDiags: []diagView{errAt("Invalid count argument", "main.tf:3:11")},
		},
		"CountFraction": {
			meta:      `count = 1.5`,
			wantDiags: []diagView{errAt("Invalid count argument", "main.tf:3:11")},
		},
		"CountWrongType": {
			meta:      `count = "many"`,
			wantDiags: []diagView{errAt("Incorrect value type", "main.tf:3:11")},
		},
		"CountUnknown": {
			reason:    "Planning must know how many instances there are.",
			meta:      `count = var.unknown_n`,
			wantDiags: []diagView{errAt("Invalid count argument", "main.tf:3:11")},
		},
		"CountUnknownAllowed": {
			meta:         `count = var.unknown_n`,
			allowUnknown: true,
			want:         &expansionView{Mode: instances.Unknown},
		},
		"CountSensitive": {
			reason: "Terraform allows a sensitive count and uses it unmarked: keys 0..n-1 disclose nothing.",
			meta:   `count = var.secret_n`,
			want:   &expansionView{Mode: instances.Count, Count: 2, Keys: ints(2)},
		},
		"CountSensitiveDerived": {
			meta: `count = length(var.secret_key) + 1`,
			want: &expansionView{Mode: instances.Count, Count: 2, Keys: ints(2)},
		},
		"CountSensitiveUnknown": {
			reason:    "An unknown sensitive count is still unknown.",
			meta:      `count = var.unknown_n + var.secret_n`,
			wantDiags: []diagView{errAt("Invalid count argument", "main.tf:3:11")},
		},
		"CountSensitiveUnknownAllowed": {
			meta:         `count = var.unknown_n + var.secret_n`,
			allowUnknown: true,
			want:         &expansionView{Mode: instances.Unknown},
		},
		"CountReferenceError": {
			meta:      `count = var.nope`,
			wantDiags: []diagView{errAt("Reference to undeclared input variable", "main.tf:3:11")},
		},
		"ForEachMap": {
			meta: `for_each = var.map`,
			want: &expansionView{Mode: instances.ForEach, Keys: []addrs.InstanceKey{addrs.StringKey("a"), addrs.StringKey("b")},
				Each: map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)}},
		},
		"ForEachObject": {
			meta: `for_each = { x = "1", y = true }`,
			want: &expansionView{Mode: instances.ForEach, Keys: []addrs.InstanceKey{addrs.StringKey("x"), addrs.StringKey("y")},
				Each: map[string]cty.Value{"x": cty.StringVal("1"), "y": cty.True}},
		},
		"ForEachEmptyMap": {
			meta: `for_each = {}`,
			want: &expansionView{Mode: instances.ForEach, Keys: []addrs.InstanceKey{}, Each: map[string]cty.Value{}},
		},
		"ForEachEmptySet": {
			reason: "toset([]) is a set of dynamic; empty, it means no instances, as in Terraform.",
			meta:   `for_each = toset([])`,
			want:   &expansionView{Mode: instances.ForEach, Keys: []addrs.InstanceKey{}, Each: map[string]cty.Value{}},
		},
		"ForEachSetOfStrings": {
			reason: "For a set, each.value is each.key.",
			meta:   `for_each = toset(["b", "a"])`,
			want: &expansionView{Mode: instances.ForEach, Keys: []addrs.InstanceKey{addrs.StringKey("a"), addrs.StringKey("b")},
				Each: map[string]cty.Value{"a": cty.StringVal("a"), "b": cty.StringVal("b")}},
		},
		"ForEachSetOfNumbers": {
			meta:      `for_each = toset([1, 2])`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachList": {
			meta:      `for_each = ["a"]`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachString": {
			meta:      `for_each = "a"`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachNull": {
			meta:      `for_each = null`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachUnknownMap": {
			meta:      `for_each = var.unknown_map`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachUnknownMapAllowed": {
			meta:         `for_each = var.unknown_map`,
			allowUnknown: true,
			want:         &expansionView{Mode: instances.Unknown},
		},
		"ForEachUnknownValues": {
			reason: "Known keys are enough; values may be unknown until apply.",
			meta:   `for_each = var.unknown_vals`,
			want: &expansionView{Mode: instances.ForEach, Keys: []addrs.InstanceKey{addrs.StringKey("a")},
				Each: map[string]cty.Value{"a": cty.UnknownVal(cty.String)}},
		},
		"ForEachSetWithUnknownElement": {
			reason:    "In a set the elements are the keys.",
			meta:      `for_each = toset(["a", var.unknown_s])`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachSetWithUnknownElementAllowed": {
			meta:         `for_each = toset(["a", var.unknown_s])`,
			allowUnknown: true,
			want:         &expansionView{Mode: instances.Unknown},
		},
		"ForEachSensitiveMap": {
			meta:      `for_each = var.secret_map`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachSensitiveSetElement": {
			reason:    "A sensitive key would be shown in the instance address.",
			meta:      `for_each = toset(["a", var.secret_key])`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
		"ForEachSensitiveValues": {
			reason: "Sensitive values (not keys) are allowed; each.value stays sensitive.",
			meta:   `for_each = var.secret_vals`,
			want: &expansionView{Mode: instances.ForEach, Keys: []addrs.InstanceKey{addrs.StringKey("a")},
				Each: map[string]cty.Value{"a": cty.StringVal("x").Mark(configschema.SensitiveMark)}},
		},
		"ForEachSetWithNull": {
			meta:      `for_each = toset(["a", null])`,
			wantDiags: []diagView{errAt("Invalid for_each argument", "main.tf:3:14")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mod := loadModule(t, `
resource "terraform_data" "x" {
  `+tc.meta+`
}
`)
			r := mod.ManagedResources["terraform_data.x"]
			scope := &lang.Scope{Data: namedvals.New(expandVars()).Data(addrs.RootModuleInstance), Funcs: funcs.Table(".")}
			got, ds := Expand(scope, r, tc.allowUnknown)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, viewExpansion(got), ctyOpts); diff != "" {
				t.Errorf("%s\nexpansion: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestExpandForEachLimit: a for_each collection larger than MaxInstances
// is refused at its expression, naming the limit.
// TestExpandForEachLimit: a for_each set or map with more elements than
// MaxInstances is refused before anything walks its elements, so even a set
// whose unknown elements would otherwise make the expansion wait for apply
// is refused when it is too large whatever they turn out to be.
func TestExpandForEachLimit(t *testing.T) {
	known := make([]cty.Value, MaxInstances+2)
	for i := range known {
		known[i] = cty.StringVal(strconv.Itoa(i))
	}
	withUnknown := append([]cty.Value{cty.UnknownVal(cty.String)}, known[1:]...)
	cases := map[string]struct {
		reason       string
		keys         cty.Value
		allowUnknown bool
	}{
		"known set": {
			reason: "one more instance than the limit",
			keys:   cty.SetVal(known[:MaxInstances+1]),
		},
		"set with an unknown element": {
			reason:       "at least MaxInstances+1 keys whatever the unknown becomes: refused in validation too, not deferred to apply",
			keys:         cty.SetVal(withUnknown),
			allowUnknown: true,
		},
	}
	r := loadModule(t, "resource \"terraform_data\" \"x\" {\n  for_each = var.keys\n}\n").ManagedResources["terraform_data.x"]
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			vars := map[string]cty.Value{"keys": tc.keys}
			scope := &lang.Scope{Data: namedvals.New(vars).Data(addrs.RootModuleInstance), Funcs: funcs.Table(".")}
			got, ds := Expand(scope, r, tc.allowUnknown)
			if got != nil {
				t.Errorf("%s: got an expansion of %d instances, want none", tc.reason, got.Len())
			}
			if len(ds) != 1 || !strings.Contains(ds[0].Detail, "at most 100000 instances") {
				t.Errorf("%s: diagnostics: %v", tc.reason, ds)
			}
		})
	}
}
