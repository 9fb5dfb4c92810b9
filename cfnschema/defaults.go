package cfnschema

import (
	"encoding/json"
	"fmt"
)

// applyDefault records a property's default on the attribute, converted to
// the attribute's type for the default plan modifier. A default that does
// not fit the type (awscc refuses some of these, ignores others) is dropped
// with a warning; the attribute stays Computed, as the schema's intent was
// a server-side value.
func (w *walker) applyDefault(a *Attribute, raw json.RawMessage, loc string) {
	v, err := decodeJSONValue(raw)
	if err != nil {
		w.warnf(loc, "Invalid default", "%v", err)
		return
	}
	val, err := valueFromJSON(a.Type, v, absentUnknown)
	if err != nil {
		w.warnf(loc, "Default does not fit the type", "%s for a %s attribute: %v; the default is not planned", jsonText(v), a.Type.Kind, err)
		a.Reasons = append(a.Reasons, fmt.Sprintf("default %s ignored: %v", jsonText(v), err))
		return
	}
	a.Default = v
	a.defaultValue = val
	a.Reasons = append(a.Reasons, fmt.Sprintf("default %s: Computed, and planned whenever the configuration leaves the attribute out", jsonText(v)))
}
