package diff

import (
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/pulumi/propval"
)

// walker collects the detailed diff of one resource.
type walker struct {
	replace  []cty.Path
	detailed map[string]*pulumirpc.PropertyDiff
	// changed holds the top-level keys with at least one entry.
	changed map[string]bool
}

// value compares prior and planned of type ty at path (cty) and ppath
// (Pulumi). Schema objects, lists and maps are compared element by
// element, so the detailed diff points at what changes; sets, tuples and
// dynamic values have no stable element address and are compared whole.
func (w *walker) value(prior, planned cty.Value, ty cty.Type, path cty.Path, ppath resource.PropertyPath, top string) {
	switch {
	case !planned.IsKnown() && prior.IsNull():
		w.add(pulumirpc.PropertyDiff_ADD, path, ppath, top)
	case !planned.IsKnown() || !prior.IsKnown():
		w.add(pulumirpc.PropertyDiff_UPDATE, path, ppath, top)
	case prior.IsNull() && planned.IsNull():
	case prior.IsNull():
		w.add(pulumirpc.PropertyDiff_ADD, path, ppath, top)
	case planned.IsNull():
		w.add(pulumirpc.PropertyDiff_DELETE, path, ppath, top)
	case ty.IsObjectType():
		for _, name := range sortedAttrs(ty) {
			key := string(propval.PropertyKey(name))
			w.value(prior.GetAttr(name), planned.GetAttr(name), ty.AttributeType(name),
				extend(path, cty.GetAttrStep{Name: name}), extendP(ppath, key), top)
		}
	case ty.IsListType():
		w.list(prior, planned, ty.ElementType(), path, ppath, top)
	case ty.IsMapType():
		w.mapOf(prior, planned, ty.ElementType(), path, ppath, top)
	case !planned.IsWhollyKnown() || !prior.IsWhollyKnown() || !prior.Equals(planned).True():
		w.add(pulumirpc.PropertyDiff_UPDATE, path, ppath, top)
	}
}

func (w *walker) list(prior, planned cty.Value, ety cty.Type, path cty.Path, ppath resource.PropertyPath, top string) {
	a, b := prior.AsValueSlice(), planned.AsValueSlice()
	for i := 0; i < len(a) || i < len(b); i++ {
		pa, pb := cty.NullVal(ety), cty.NullVal(ety)
		if i < len(a) {
			pa = a[i]
		}
		if i < len(b) {
			pb = b[i]
		}
		p, pp := extend(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), extendP(ppath, i)
		switch {
		case i >= len(a):
			w.add(pulumirpc.PropertyDiff_ADD, p, pp, top)
		case i >= len(b):
			w.add(pulumirpc.PropertyDiff_DELETE, p, pp, top)
		default:
			w.value(pa, pb, ety, p, pp, top)
		}
	}
}

func (w *walker) mapOf(prior, planned cty.Value, ety cty.Type, path cty.Path, ppath resource.PropertyPath, top string) {
	a, b := prior.AsValueMap(), planned.AsValueMap()
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		pa, ok := a[k]
		if !ok {
			pa = cty.NullVal(ety)
		}
		pb, ok := b[k]
		if !ok {
			pb = cty.NullVal(ety)
		}
		w.value(pa, pb, ety, extend(path, cty.IndexStep{Key: cty.StringVal(k)}), extendP(ppath, k), top)
	}
}

// add records a change, in its _REPLACE form when a path that requires
// replacement lies at, under or above it.
func (w *walker) add(kind pulumirpc.PropertyDiff_Kind, path cty.Path, ppath resource.PropertyPath, top string) {
	if w.replaces1(path) {
		kind = replaceKind[kind]
	}
	w.detailed[ppath.String()] = &pulumirpc.PropertyDiff{Kind: kind}
	w.changed[top] = true
}

var replaceKind = map[pulumirpc.PropertyDiff_Kind]pulumirpc.PropertyDiff_Kind{
	pulumirpc.PropertyDiff_ADD:    pulumirpc.PropertyDiff_ADD_REPLACE,
	pulumirpc.PropertyDiff_UPDATE: pulumirpc.PropertyDiff_UPDATE_REPLACE,
	pulumirpc.PropertyDiff_DELETE: pulumirpc.PropertyDiff_DELETE_REPLACE,
}

func (w *walker) replaces1(path cty.Path) bool {
	for _, r := range w.replace {
		if hasPrefix(path, r) || hasPrefix(r, path) {
			return true
		}
	}
	return false
}

// replaces returns the top-level keys whose change requires replacement:
// a requires-replace path counts only where something changed.
func (w *walker) replaces(ty cty.Type) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range w.replace {
		if len(r) == 0 {
			continue
		}
		step, ok := r[0].(cty.GetAttrStep)
		if !ok || !ty.HasAttribute(step.Name) {
			continue
		}
		key := string(propval.PropertyKey(step.Name))
		if w.changed[key] && !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	sort.Strings(out)
	return out
}

func hasPrefix(p, prefix cty.Path) bool {
	return len(prefix) <= len(p) && p[:len(prefix)].Equals(prefix)
}

func extend(p cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, step)
}

func extendP(p resource.PropertyPath, step any) resource.PropertyPath {
	out := make(resource.PropertyPath, len(p), len(p)+1)
	copy(out, p)
	return append(out, step)
}
