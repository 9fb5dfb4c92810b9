package render

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// The messages of query -json (Terraform 1.14's terraform query): per
// list block, list_start, then list_resource_found per object, then
// list_complete with the number found. addr is list.TYPE.NAME.

// UIListStart is the list_start message of a list block whose config
// block evaluated to config (left out when null).
func UIListStart(addr, typ string, config cty.Value) UIMessage {
	start := map[string]any{"address": addr, "resource_type": typ}
	if fields := objectFields(config); fields != nil {
		start["input_config"] = fields
	}
	return UIMessage{Level: "info", Message: addr + ": Starting query...", Type: "list_start", Fields: map[string]any{"list_start": start}}
}

// ListFound is one object of a list_resource_found message: its
// identity and display name, the object when the list asked for it
// (cty.NilVal otherwise), and with -generate-config-out its resource and
// import blocks as text.
type ListFound struct {
	Addr, Type, DisplayName string
	Identity, Object        cty.Value
	Config, ImportConfig    string
}

// UIListResourceFound is the list_resource_found message of f.
func UIListResourceFound(f ListFound) UIMessage {
	found := map[string]any{"address": f.Addr, "display_name": f.DisplayName, "identity": objectFields(f.Identity), "resource_type": f.Type}
	if fields := objectFields(f.Object); fields != nil {
		found["resource_object"] = fields
	}
	if f.Config != "" {
		found["config"] = f.Config
	}
	if f.ImportConfig != "" {
		found["import_config"] = f.ImportConfig
	}
	return UIMessage{Level: "info", Message: f.Addr + ": Result found", Type: "list_resource_found", Fields: map[string]any{"list_resource_found": found}}
}

// UIListComplete is the list_complete message of a list that found
// total objects.
func UIListComplete(addr, typ string, total int) UIMessage {
	return UIMessage{Level: "info", Message: addr + ": List complete", Type: "list_complete",
		Fields: map[string]any{"list_complete": map[string]any{"address": addr, "resource_type": typ, "total": total}}}
}

// objectFields is an object's attributes, each as JSON, by name; nil for
// a null or absent object.
func objectFields(v cty.Value) map[string]json.RawMessage {
	if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return nil
	}
	out := map[string]json.RawMessage{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		src, err := ctyjson.Marshal(e, e.Type())
		if err != nil {
			continue
		}
		out[k.AsString()] = src
	}
	return out
}
