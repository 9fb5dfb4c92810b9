package awscc

import (
	"encoding/json"
	"strings"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// twinValue is a twin's value to send.
type twinValue struct {
	tw    twin
	value string
}

// twinValues returns the twins' values to send: those the configuration
// sets, all of them on a create (prior null), and on an update only
// those whose version changed.
func twinValues(t *cfnschema.ResourceType, config, prior, planned tftypes.Value) []twinValue {
	var out []twinValue
	for _, tw := range twinsOf(t) {
		v := getAttr(config, tw.name())
		var s string
		if v.Type() == nil || !v.IsKnown() || v.IsNull() || v.As(&s) != nil {
			continue
		}
		if !prior.IsNull() && getAttr(prior, tw.version()).Equal(getAttr(planned, tw.version())) {
			continue
		}
		out = append(out, twinValue{tw: tw, value: s})
	}
	return out
}

// withTwins puts the twins' values into a desired-state document, making
// the objects that hold them where the document has none.
func withTwins(doc map[string]any, vals []twinValue) {
	for _, tv := range vals {
		m := doc
		p := tv.tw.cfnPath
		for _, name := range p[:len(p)-1] {
			next, ok := m[name].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[name] = next
			}
			m = next
		}
		m[p[len(p)-1]] = tv.value
	}
}

// patchWithTwins appends to an update patch an add of each twin's value:
// the prior side of the patch never holds write-only properties (see
// updatePatch), so add is what sets them. A property whose object the
// updated resource will not have (null in the plan, or unknown and absent
// before) is added with that object, holding the twins that go in it.
func patchWithTwins(patch string, vals []twinValue, prior, planned tftypes.Value) (string, error) {
	if len(vals) == 0 {
		return patch, nil
	}
	var ops []map[string]any
	if err := json.Unmarshal([]byte(patch), &ops); err != nil {
		return "", err
	}
	made := map[string]map[string]any{}
	for _, tv := range vals {
		p := tv.tw.cfnPath
		at := missingObject(tv.tw.prop.Path, prior, planned)
		if at < 0 {
			ops = append(ops, map[string]any{"op": "add", "path": pointerOf(p), "value": tv.value})
			continue
		}
		ptr := pointerOf(p[:at+1])
		obj, ok := made[ptr]
		if !ok {
			obj = map[string]any{}
			made[ptr] = obj
			ops = append(ops, map[string]any{"op": "add", "path": ptr, "value": obj})
		}
		withTwins(obj, []twinValue{{tw: twin{cfnPath: p[at+1:]}, value: tv.value}})
	}
	b, err := json.Marshal(ops)
	return string(b), err
}

// missingObject returns the index in names (a property's Terraform path)
// of the outermost object that holds the property and that the updated
// resource will not have; -1 when they all exist. An object the plan
// leaves unknown exists if it existed before.
func missingObject(names []string, prior, planned tftypes.Value) int {
	for i := range names[:len(names)-1] {
		v := attrAt(planned, names[:i+1])
		switch {
		case v.IsKnown() && !v.IsNull():
			continue
		case !v.IsKnown():
			if pv := attrAt(prior, names[:i+1]); pv.IsKnown() && !pv.IsNull() {
				continue
			}
		}
		return i
	}
	return -1
}

// attrAt returns the value at an attribute path of objects: null when a
// step is missing or null, unknown when one is unknown.
func attrAt(v tftypes.Value, names []string) tftypes.Value {
	for _, n := range names {
		if !v.IsKnown() {
			return tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
		}
		if v.IsNull() {
			return tftypes.NewValue(tftypes.DynamicPseudoType, nil)
		}
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return tftypes.NewValue(tftypes.DynamicPseudoType, nil)
		}
		next, ok := m[n]
		if !ok {
			return tftypes.NewValue(tftypes.DynamicPseudoType, nil)
		}
		v = next
	}
	return v
}

// pointerOf is the RFC 6901 pointer of a CloudFormation property path.
func pointerOf(p []string) string {
	var b strings.Builder
	for _, name := range p {
		b.WriteByte('/')
		b.WriteString(escapePointer(name))
	}
	return b.String()
}

// escapePointer escapes a property name as an RFC 6901 reference token.
func escapePointer(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }
