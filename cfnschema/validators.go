package cfnschema

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// configurable reports whether an attribute takes configuration. awscc
// emits validators only for those: a computed-only value comes from the
// server and is not the practitioner's to fix.
func configurable(a *Attribute) bool { return a.Required || a.Optional }

func stringValidators(a *Attribute) []validator.String {
	if !configurable(a) {
		return nil
	}
	vs := stringValueValidators(a.Type)
	if a.NotNull {
		vs = append(vs, notNull{})
	}
	return vs
}

func int64Validators(a *Attribute) []validator.Int64 {
	if !configurable(a) {
		return nil
	}
	vs := int64ValueValidators(a.Type)
	if a.NotNull {
		vs = append(vs, notNull{})
	}
	return vs
}

func float64Validators(a *Attribute) []validator.Float64 {
	if !configurable(a) {
		return nil
	}
	vs := float64ValueValidators(a.Type)
	if a.NotNull {
		vs = append(vs, notNull{})
	}
	return vs
}

func boolValidators(a *Attribute) []validator.Bool {
	if !configurable(a) || !a.NotNull {
		return nil
	}
	return []validator.Bool{notNull{}}
}

func objectValidators(a *Attribute) []validator.Object {
	if !configurable(a) || !a.NotNull {
		return nil
	}
	return []validator.Object{notNull{}}
}

func listValidators(a *Attribute) []validator.List {
	if !configurable(a) {
		return nil
	}
	vs := listValueValidators(a.Type)
	if a.NotNull {
		vs = append(vs, notNull{})
	}
	return vs
}

func setValidators(a *Attribute) []validator.Set {
	if !configurable(a) {
		return nil
	}
	vs := setValueValidators(a.Type)
	if a.NotNull {
		vs = append(vs, notNull{})
	}
	return vs
}

func mapValidators(a *Attribute) []validator.Map {
	if !configurable(a) {
		return nil
	}
	vs := mapValueValidators(a.Type)
	if a.NotNull {
		vs = append(vs, notNull{})
	}
	return vs
}

// stringValueValidators: minLength/maxLength count characters (code
// points) as JSON Schema does; pattern runs on RE2 or ECMA-262; enum.
func stringValueValidators(t *Type) []validator.String {
	c := t.Constraints
	var vs []validator.String
	switch {
	case c.MinLength != nil && c.MaxLength != nil:
		vs = append(vs, stringvalidator.UTF8LengthBetween(clampInt(*c.MinLength), clampInt(*c.MaxLength)))
	case c.MinLength != nil:
		vs = append(vs, stringvalidator.UTF8LengthAtLeast(clampInt(*c.MinLength)))
	case c.MaxLength != nil:
		vs = append(vs, stringvalidator.UTF8LengthAtMost(clampInt(*c.MaxLength)))
	}
	if p := c.Pattern; p != nil {
		if p.re2 != nil {
			vs = append(vs, stringvalidator.RegexMatches(p.re2, ""))
		} else {
			vs = append(vs, ecmaPattern{p})
		}
	}
	if len(c.Enum) > 0 {
		vals := make([]string, 0, len(c.Enum))
		for _, e := range c.Enum {
			if s, ok := cloudcontrol.ScalarText(e); ok {
				vals = append(vals, s)
			}
		}
		vs = append(vs, stringvalidator.OneOf(vals...))
	}
	return vs
}

func int64ValueValidators(t *Type) []validator.Int64 {
	c := t.Constraints
	var vs []validator.Int64
	lo, hasLo := int64Bound(c.Minimum, math.Ceil)
	hi, hasHi := int64Bound(c.Maximum, math.Floor)
	switch {
	case hasLo && hasHi:
		vs = append(vs, int64validator.Between(lo, hi))
	case hasLo:
		vs = append(vs, int64validator.AtLeast(lo))
	case hasHi:
		vs = append(vs, int64validator.AtMost(hi))
	}
	if len(c.Enum) > 0 {
		vals := make([]int64, 0, len(c.Enum))
		for _, e := range c.Enum {
			if s, ok := cloudcontrol.ScalarText(e); ok {
				if i, ok := int64Bound(json.Number(s), math.Trunc); ok {
					vals = append(vals, i)
				}
			}
		}
		vs = append(vs, int64validator.OneOf(vals...))
	}
	return vs
}

func float64ValueValidators(t *Type) []validator.Float64 {
	c := t.Constraints
	var vs []validator.Float64
	lo, errLo := strconv.ParseFloat(string(c.Minimum), 64)
	hi, errHi := strconv.ParseFloat(string(c.Maximum), 64)
	switch {
	case errLo == nil && errHi == nil:
		vs = append(vs, float64validator.Between(lo, hi))
	case errLo == nil:
		vs = append(vs, float64validator.AtLeast(lo))
	case errHi == nil:
		vs = append(vs, float64validator.AtMost(hi))
	}
	if len(c.Enum) > 0 {
		vals := make([]float64, 0, len(c.Enum))
		for _, e := range c.Enum {
			if s, ok := cloudcontrol.ScalarText(e); ok {
				if f, err := strconv.ParseFloat(s, 64); err == nil {
					vals = append(vals, f)
				}
			}
		}
		vs = append(vs, float64validator.OneOf(vals...))
	}
	return vs
}

func listValueValidators(t *Type) []validator.List {
	c := t.Constraints
	var vs []validator.List
	switch {
	case c.MinItems != nil && c.MaxItems != nil:
		vs = append(vs, listvalidator.SizeBetween(clampInt(*c.MinItems), clampInt(*c.MaxItems)))
	case c.MinItems != nil:
		vs = append(vs, listvalidator.SizeAtLeast(clampInt(*c.MinItems)))
	case c.MaxItems != nil:
		vs = append(vs, listvalidator.SizeAtMost(clampInt(*c.MaxItems)))
	}
	if t.ListMode == ListUnique {
		vs = append(vs, listvalidator.UniqueValues())
	}
	e := elementValidators(t.Elem)
	switch {
	case len(e.strings) > 0:
		vs = append(vs, listvalidator.ValueStringsAre(e.strings...))
	case len(e.int64s) > 0:
		vs = append(vs, listvalidator.ValueInt64sAre(e.int64s...))
	case len(e.float64s) > 0:
		vs = append(vs, listvalidator.ValueFloat64sAre(e.float64s...))
	case len(e.lists) > 0:
		vs = append(vs, listvalidator.ValueListsAre(e.lists...))
	case len(e.sets) > 0:
		vs = append(vs, listvalidator.ValueSetsAre(e.sets...))
	case len(e.maps) > 0:
		vs = append(vs, listvalidator.ValueMapsAre(e.maps...))
	}
	return vs
}

func setValueValidators(t *Type) []validator.Set {
	c := t.Constraints
	var vs []validator.Set
	switch {
	case c.MinItems != nil && c.MaxItems != nil:
		vs = append(vs, setvalidator.SizeBetween(clampInt(*c.MinItems), clampInt(*c.MaxItems)))
	case c.MinItems != nil:
		vs = append(vs, setvalidator.SizeAtLeast(clampInt(*c.MinItems)))
	case c.MaxItems != nil:
		vs = append(vs, setvalidator.SizeAtMost(clampInt(*c.MaxItems)))
	}
	e := elementValidators(t.Elem)
	switch {
	case len(e.strings) > 0:
		vs = append(vs, setvalidator.ValueStringsAre(e.strings...))
	case len(e.int64s) > 0:
		vs = append(vs, setvalidator.ValueInt64sAre(e.int64s...))
	case len(e.float64s) > 0:
		vs = append(vs, setvalidator.ValueFloat64sAre(e.float64s...))
	case len(e.lists) > 0:
		vs = append(vs, setvalidator.ValueListsAre(e.lists...))
	case len(e.sets) > 0:
		vs = append(vs, setvalidator.ValueSetsAre(e.sets...))
	case len(e.maps) > 0:
		vs = append(vs, setvalidator.ValueMapsAre(e.maps...))
	}
	return vs
}

func mapValueValidators(t *Type) []validator.Map {
	c := t.Constraints
	var vs []validator.Map
	switch {
	case c.MinProperties != nil && c.MaxProperties != nil:
		vs = append(vs, mapvalidator.SizeBetween(clampInt(*c.MinProperties), clampInt(*c.MaxProperties)))
	case c.MinProperties != nil:
		vs = append(vs, mapvalidator.SizeAtLeast(clampInt(*c.MinProperties)))
	case c.MaxProperties != nil:
		vs = append(vs, mapvalidator.SizeAtMost(clampInt(*c.MaxProperties)))
	}
	if len(c.KeyPatterns) > 0 {
		vs = append(vs, mapvalidator.KeysAre(keyPatterns{c.KeyPatterns}))
	}
	if len(t.ValuesByPattern) > 1 && isScalar(t.Elem.Kind) {
		vs = append(vs, valuesByPattern{t.ValuesByPattern})
		return vs
	}
	e := elementValidators(t.Elem)
	switch {
	case len(e.strings) > 0:
		vs = append(vs, mapvalidator.ValueStringsAre(e.strings...))
	case len(e.int64s) > 0:
		vs = append(vs, mapvalidator.ValueInt64sAre(e.int64s...))
	case len(e.float64s) > 0:
		vs = append(vs, mapvalidator.ValueFloat64sAre(e.float64s...))
	case len(e.lists) > 0:
		vs = append(vs, mapvalidator.ValueListsAre(e.lists...))
	case len(e.sets) > 0:
		vs = append(vs, mapvalidator.ValueSetsAre(e.sets...))
	case len(e.maps) > 0:
		vs = append(vs, mapvalidator.ValueMapsAre(e.maps...))
	}
	return vs
}

// elemValidators holds the validators of a collection's elements; at most
// one field is set, by the element kind. Objects in collections carry their
// validators on their nested attributes, so they have none here.
type elemValidators struct {
	strings  []validator.String
	int64s   []validator.Int64
	float64s []validator.Float64
	lists    []validator.List
	sets     []validator.Set
	maps     []validator.Map
}

func elementValidators(t *Type) elemValidators {
	switch t.Kind {
	case KindString, KindTimestamp, KindJSON:
		return elemValidators{strings: stringValueValidators(t)}
	case KindInt64:
		return elemValidators{int64s: int64ValueValidators(t)}
	case KindFloat64:
		return elemValidators{float64s: float64ValueValidators(t)}
	case KindList:
		return elemValidators{lists: listValueValidators(t)}
	case KindSet:
		return elemValidators{sets: setValueValidators(t)}
	case KindMap:
		return elemValidators{maps: mapValueValidators(t)}
	}
	return elemValidators{}
}

func isScalar(k Kind) bool {
	switch k {
	case KindString, KindTimestamp, KindJSON, KindInt64, KindFloat64, KindBool:
		return true
	}
	return false
}

// int64Bound converts a JSON number to an int64 bound, rounding a
// fractional bound inwards with round (Ceil for minimums, Floor for
// maximums) and clamping to the int64 range.
func int64Bound(n json.Number, round func(float64) float64) (int64, bool) {
	if n == "" {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return 0, false
	}
	f = round(f)
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt64, true
	case f <= math.MinInt64:
		return math.MinInt64, true
	}
	return int64(f), true
}

func clampInt(i int64) int {
	if i > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(i)
}
