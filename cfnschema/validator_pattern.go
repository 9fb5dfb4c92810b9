package cfnschema

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// ecmaPattern validates a string against a pattern only the ECMA-262
// engine compiles. RE2 patterns use stringvalidator.RegexMatches instead.
type ecmaPattern struct{ p *Pattern }

var _ validator.String = ecmaPattern{}

func (v ecmaPattern) Description(context.Context) string {
	return fmt.Sprintf("value must match ECMA-262 regular expression '%s'", v.p.Source)
}

func (v ecmaPattern) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v ecmaPattern) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	ok, err := v.p.MatchString(s)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Pattern match timed out",
			fmt.Sprintf("Matching %q against %s took too long: %v", s, v.p.Source, err))
	case !ok:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value Match",
			fmt.Sprintf("Attribute %s %s, got: %s", req.Path, v.Description(ctx), s))
	}
}

// keyPatterns validates a map key: it must match one of the map's
// patternProperties patterns.
type keyPatterns struct{ ps []*Pattern }

var _ validator.String = keyPatterns{}

func (v keyPatterns) Description(context.Context) string {
	return "key must match one of " + patternList(v.ps)
}

func (v keyPatterns) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v keyPatterns) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	key := req.ConfigValue.ValueString()
	for _, p := range v.ps {
		if ok, _ := p.MatchString(key); ok {
			return
		}
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Map Key",
		fmt.Sprintf("Map key %q at %s does not match any of %s.", key, req.Path, patternList(v.ps)))
}

func patternList(ps []*Pattern) string {
	srcs := make([]string, len(ps))
	for i, p := range ps {
		srcs[i] = "'" + p.Source + "'"
	}
	return strings.Join(srcs, ", ")
}

// valuesByPattern validates the values of a map with several
// patternProperties: each value must pass the validators of at least one
// pattern its key matches (a nil pattern matches every key).
type valuesByPattern struct{ values []PatternValue }

var _ validator.Map = valuesByPattern{}

func (v valuesByPattern) Description(context.Context) string {
	return "each value must satisfy the schema of a pattern its key matches"
}

func (v valuesByPattern) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v valuesByPattern) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for key, val := range req.ConfigValue.Elements() {
		p := req.Path.AtMapKey(key)
		var last []string
		matched := false
		for _, pv := range v.values {
			if pv.Pattern != nil {
				if ok, _ := pv.Pattern.MatchString(key); !ok {
					continue
				}
			}
			problems := scalarProblems(ctx, p, pv.Elem, val)
			if len(problems) == 0 {
				matched = true
				break
			}
			last = problems
		}
		if !matched && last != nil {
			resp.Diagnostics.AddAttributeError(p, "Invalid Attribute Value", strings.Join(last, "; "))
		}
	}
}

// scalarProblems runs the validators of a scalar element type on one value
// and returns their error summaries and details.
func scalarProblems(ctx context.Context, p path.Path, t *Type, val attr.Value) []string {
	var out []string
	collect := func(sum, det string) { out = append(out, sum+": "+det) }
	switch t.Kind {
	case KindString, KindTimestamp, KindJSON:
		sv, ok := val.(basetypes.StringValuable)
		if !ok {
			return nil
		}
		s, _ := sv.ToStringValue(ctx)
		for _, vd := range stringValueValidators(t) {
			r := &validator.StringResponse{}
			vd.ValidateString(ctx, validator.StringRequest{Path: p, ConfigValue: s}, r)
			for _, d := range r.Diagnostics.Errors() {
				collect(d.Summary(), d.Detail())
			}
		}
	case KindInt64:
		iv, ok := val.(basetypes.Int64Valuable)
		if !ok {
			return nil
		}
		i, _ := iv.ToInt64Value(ctx)
		for _, vd := range int64ValueValidators(t) {
			r := &validator.Int64Response{}
			vd.ValidateInt64(ctx, validator.Int64Request{Path: p, ConfigValue: i}, r)
			for _, d := range r.Diagnostics.Errors() {
				collect(d.Summary(), d.Detail())
			}
		}
	case KindFloat64:
		fv, ok := val.(basetypes.Float64Valuable)
		if !ok {
			return nil
		}
		f, _ := fv.ToFloat64Value(ctx)
		for _, vd := range float64ValueValidators(t) {
			r := &validator.Float64Response{}
			vd.ValidateFloat64(ctx, validator.Float64Request{Path: p, ConfigValue: f}, r)
			for _, d := range r.Diagnostics.Errors() {
				collect(d.Summary(), d.Detail())
			}
		}
	}
	return out
}
