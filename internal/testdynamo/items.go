package testdynamo

import (
	"encoding/json"
	"time"
)

// table is one table: its key attribute and its items, each a map of
// attribute name to string value. The server's mutex guards it.
type table struct {
	name    string
	key     string
	created time.Time
	items   map[string]map[string]string
}

func newTable(name, key string) *table {
	return &table{name: name, key: key, created: time.Now(), items: map[string]map[string]string{}}
}

// attrValue is one AttributeValue on the wire: an object with exactly
// one member naming its type.
type attrValue map[string]json.RawMessage

// str returns the value of an S attribute; any other type is refused,
// since the subset holds strings only.
func (v attrValue) str() (string, *apiError) {
	raw, ok := v["S"]
	if len(v) != 1 || !ok {
		return "", errValidation("testdynamo supports only attribute values of type S")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errSerialization("an S attribute value is not a string")
	}
	return s, nil
}

func strValue(s string) attrValue {
	b, _ := json.Marshal(s) // a string always marshals
	return attrValue{"S": b}
}

// decodeItem turns a wire item into strings.
func decodeItem(in map[string]attrValue) (map[string]string, *apiError) {
	out := make(map[string]string, len(in))
	for k, v := range in {
		s, e := v.str()
		if e != nil {
			return nil, e
		}
		out[k] = s
	}
	return out, nil
}

// encodeItem turns an item into its wire form, keeping only the
// attributes in projection when it is not nil.
func encodeItem(item map[string]string, projection []string) map[string]attrValue {
	out := map[string]attrValue{}
	if projection == nil {
		for k, v := range item {
			out[k] = strValue(v)
		}
		return out
	}
	for _, k := range projection {
		if v, ok := item[k]; ok {
			out[k] = strValue(v)
		}
	}
	return out
}

// keyOf checks that key names exactly the table's key attribute with a
// non-empty string, and returns it.
func (t *table) keyOf(key map[string]string) (string, *apiError) {
	v, ok := key[t.key]
	if !ok || len(key) != 1 {
		return "", errValidation("The provided key element does not match the schema")
	}
	if v == "" {
		return "", errValidation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: " + t.key)
	}
	return v, nil
}

func copyItem(in map[string]string) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}
