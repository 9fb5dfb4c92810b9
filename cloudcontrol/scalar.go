package cloudcontrol

import (
	"encoding/json"
	"strconv"
)

// ScalarText returns the text of a scalar JSON value, the way
// CloudFormation coerces scalars where a schema wants text: a string is
// itself, a number its JSON text (5 is "5"), a boolean "true" or "false".
// ok is false for null, objects and arrays, which have no scalar text, and
// for a float64 JSON cannot hold (NaN, ±Inf).
//
// It is the one coercion of the endpoint (identifiers), the emulator
// (identifiers, names, defaults) and cfnschema (values and enums), so
// that a model's scalar reads the same to all of them. Models are decoded
// with json.Decoder.UseNumber; a float64 from a Handler that built its
// model in Go is accepted too.
func ScalarText(v any) (text string, ok bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		b, err := json.Marshal(x)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	return "", false
}
