package awscc

import (
	"context"
	"sort"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// tagsAllName is the computed attribute holding a taggable resource's tags
// with the provider's default_tags merged in, as the AWS provider's
// tags_all does: the configured tags stay exactly as configured (the plan
// contract), and tags_all is what is sent and read back.
const tagsAllName = "tags_all"

// tagShape is how a type holds its tags. Two shapes take default tags:
// an array of {Key, Value} objects (a list or a set) and a map of strings
// (patternProperties). Any other (a JSON string, objects without Key and
// Value, maps of non-strings) takes none: the type keeps its tags
// attribute as it is, without tags_all.
type tagShape struct {
	attr *cfnschema.Attribute
	// key and value are the element attributes' Terraform names for an
	// array of objects; empty for a map.
	key, value string
}

// tagShapeOf returns the type's tag shape; ok is false when the type takes
// no default tags.
func tagShapeOf(t *cfnschema.ResourceType) (tagShape, bool) {
	if t.Tagging == nil || t.Attributes.ByName(tagsAllName) != nil {
		return tagShape{}, false
	}
	a := t.Tagging.Attribute
	switch a.Type.Kind {
	case cfnschema.KindMap:
		return tagShape{attr: a}, a.Type.Elem.Kind == cfnschema.KindString
	case cfnschema.KindList, cfnschema.KindSet:
		if a.Type.Elem.Kind != cfnschema.KindObject {
			return tagShape{}, false
		}
		k, v := a.Type.Elem.Attributes.ByCFNName("Key"), a.Type.Elem.Attributes.ByCFNName("Value")
		if k == nil || v == nil || k.Type.Kind != cfnschema.KindString || v.Type.Kind != cfnschema.KindString {
			return tagShape{}, false
		}
		return tagShape{attr: a, key: k.Name, value: v.Name}, true
	}
	return tagShape{}, false
}

// addTagsAll adds the computed tags_all attribute, of the tags attribute's
// type, to a taggable type's schema.
func addTagsAll(t *cfnschema.ResourceType, s *schema.Schema) {
	sh, ok := tagShapeOf(t)
	if !ok {
		return
	}
	desc := "The resource's tags with the provider's default_tags merged in (configured tags win): what is sent to and read from AWS."
	et := sh.attr.Type.Elem.AttrType()
	switch sh.attr.Type.Kind {
	case cfnschema.KindMap:
		s.Attributes[tagsAllName] = schema.MapAttribute{ElementType: et, Computed: true, Description: desc}
	case cfnschema.KindSet:
		s.Attributes[tagsAllName] = schema.SetAttribute{ElementType: et, Computed: true, Description: desc}
	default:
		s.Attributes[tagsAllName] = schema.ListAttribute{ElementType: et, Computed: true, Description: desc}
	}
}

// tagPairs reads a known tags value as key-value pairs in order.
func (sh tagShape) pairs(v tftypes.Value) [][2]string {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return nil
	}
	var out [][2]string
	if sh.key == "" {
		var m map[string]tftypes.Value
		_ = v.As(&m)
		for k, e := range m {
			var s string
			_ = e.As(&s)
			out = append(out, [2]string{k, s})
		}
		sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
		return out
	}
	var elems []tftypes.Value
	_ = v.As(&elems)
	for _, e := range elems {
		var k, val string
		_ = getAttr(e, sh.key).As(&k)
		_ = getAttr(e, sh.value).As(&val)
		out = append(out, [2]string{k, val})
	}
	return out
}

// build makes a tags value of type ty from pairs; null when there are
// none.
func (sh tagShape) build(ty tftypes.Type, pairs [][2]string) tftypes.Value {
	if len(pairs) == 0 {
		return tftypes.NewValue(ty, nil)
	}
	if sh.key == "" {
		m := make(map[string]tftypes.Value, len(pairs))
		for _, p := range pairs {
			m[p[0]] = tftypes.NewValue(tftypes.String, p[1])
		}
		return tftypes.NewValue(ty, m)
	}
	var et tftypes.Object
	switch c := ty.(type) {
	case tftypes.List:
		et = c.ElementType.(tftypes.Object)
	case tftypes.Set:
		et = c.ElementType.(tftypes.Object)
	}
	elems := make([]tftypes.Value, len(pairs))
	for i, p := range pairs {
		m := make(map[string]tftypes.Value, len(et.AttributeTypes))
		for name, at := range et.AttributeTypes {
			m[name] = tftypes.NewValue(at, nil)
		}
		m[sh.key] = tftypes.NewValue(tftypes.String, p[0])
		m[sh.value] = tftypes.NewValue(tftypes.String, p[1])
		elems[i] = tftypes.NewValue(et, m)
	}
	return tftypes.NewValue(ty, elems)
}

// ModifyPlan plans an object an unfinished create left behind
// (planAfterCreate), and tags_all: the configured tags with the default tags
// the configuration does not set added after them. It is unknown while
// either is. A type that cannot change its tags in place (a createOnly
// tag property, or tagUpdatable false) is replaced when tags_all changes,
// since the service refuses the update (NotUpdatable); while tags_all is
// unknown it is not, so that unknown default tags never replace a
// resource whose tags turn out the same.
func (r *ccResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.planAfterCreate(ctx, req, resp)
	r.planTagsAll(req, resp)
	if r.tagsFixed() && !req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() {
		prior, planned := getAttr(req.State.Raw, tagsAllName), getAttr(resp.Plan.Raw, tagsAllName)
		if planned.IsKnown() && prior.Type() != nil && !prior.Equal(planned) {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root(tagsAllName))
		}
	}
}

// tagsFixed reports whether the type takes default tags but cannot update
// its tags in place.
func (r *ccResource) tagsFixed() bool {
	sh, ok := tagShapeOf(r.t)
	return ok && (sh.attr.CreateOnly || r.t.Tagging.NotUpdatable)
}

func (r *ccResource) planTagsAll(req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	sh, ok := tagShapeOf(r.t)
	if !ok || req.Plan.Raw.IsNull() {
		return
	}
	ty := req.Plan.Schema.Type().TerraformType(context.Background()).(tftypes.Object).AttributeTypes[tagsAllName]
	cfg := getAttr(req.Config.Raw, sh.attr.Name)
	if r.rt == nil || r.rt.defaultTagsUnknown || !cfg.IsFullyKnown() {
		resp.Plan.Raw = setAttr(resp.Plan.Raw, tagsAllName, tftypes.NewValue(ty, tftypes.UnknownValue))
		return
	}
	all := sh.pairs(cfg)
	seen := map[string]bool{}
	for _, p := range all {
		seen[p[0]] = true
	}
	keys := make([]string, 0, len(r.rt.defaultTags))
	for k := range r.rt.defaultTags {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		all = append(all, [2]string{k, r.rt.defaultTags[k]})
	}
	// The same tags in another order are no change.
	if prior := getAttr(req.State.Raw, tagsAllName); prior.Type() != nil && prior.IsFullyKnown() && samePairs(sh.pairs(prior), all) {
		resp.Plan.Raw = setAttr(resp.Plan.Raw, tagsAllName, prior)
		return
	}
	resp.Plan.Raw = setAttr(resp.Plan.Raw, tagsAllName, sh.build(ty, all))
}

// samePairs reports whether two tag lists hold the same pairs in any
// order.
func samePairs(a, b [][2]string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[[2]string]int{}
	for _, p := range a {
		count[p]++
	}
	for _, p := range b {
		if count[p]--; count[p] < 0 {
			return false
		}
	}
	return true
}

// withTagsSent returns obj with its tags attribute holding tags_all, which
// is what Cloud Control receives; obj unchanged for types without
// tags_all or while tags_all is unknown.
func withTagsSent(t *cfnschema.ResourceType, obj tftypes.Value) tftypes.Value {
	sh, ok := tagShapeOf(t)
	if !ok {
		return obj
	}
	all := getAttr(obj, tagsAllName)
	if all.Type() == nil || !all.IsKnown() {
		return obj
	}
	return setAttr(obj, sh.attr.Name, all)
}

// splitTags takes a value read from Cloud Control (tags holding every
// remote tag) and sets tags_all to every remote tag and tags to the
// remote tags minus the default tags that ref (prior state, or the plan)
// does not set itself, so default tags never show as drift.
//
// A default tag is one the current default_tags name or one Cairn applied
// as a default before (in ref's tags_all but not its tags): a key just
// removed from default_tags is still on the resource until the next
// apply removes it, and is not the resource's own tag meanwhile.
func (r *ccResource) splitTags(v, ref tftypes.Value) tftypes.Value {
	sh, ok := tagShapeOf(r.t)
	if !ok {
		return v
	}
	remote := getAttr(v, sh.attr.Name)
	v = setAttr(v, tagsAllName, remote)
	isDefault := r.appliedDefaults(sh, ref)
	if len(isDefault) == 0 {
		return v
	}
	own := map[string]bool{}
	for _, p := range sh.pairs(getAttr(ref, sh.attr.Name)) {
		own[p[0]] = true
	}
	var kept [][2]string
	for _, p := range sh.pairs(remote) {
		if !isDefault[p[0]] || own[p[0]] {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(sh.pairs(remote)) {
		return v
	}
	return setAttr(v, sh.attr.Name, sh.build(remote.Type(), kept))
}

// appliedDefaults returns the keys of the current default tags and of
// those ref's tags_all holds beyond its own tags.
func (r *ccResource) appliedDefaults(sh tagShape, ref tftypes.Value) map[string]bool {
	out := map[string]bool{}
	if r.rt != nil {
		for k := range r.rt.defaultTags {
			out[k] = true
		}
	}
	own := map[string]bool{}
	for _, p := range sh.pairs(getAttr(ref, sh.attr.Name)) {
		own[p[0]] = true
	}
	for _, p := range sh.pairs(getAttr(ref, tagsAllName)) {
		if !own[p[0]] {
			out[p[0]] = true
		}
	}
	return out
}
