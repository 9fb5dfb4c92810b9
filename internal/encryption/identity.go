package encryption

import (
	"bytes"
	"encoding/json"
	"sort"
)

// stateIdentity reads serial and lineage from the top level of a state
// document, stopping as soon as both are found: they come first in the
// files Cairn and Terraform write, so a large state is not parsed twice.
// Anything unexpected yields what was found so far.
func stateIdentity(plain []byte) (*uint64, string) {
	dec := json.NewDecoder(bytes.NewReader(plain))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, ""
	}
	var serial *uint64
	var lineage string
	for dec.More() && (serial == nil || lineage == "") {
		tok, err := dec.Token()
		if err != nil {
			return serial, lineage
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return serial, lineage
		}
		switch key {
		case "serial":
			var n uint64
			if json.Unmarshal(v, &n) == nil {
				serial = &n
			}
		case "lineage":
			_ = json.Unmarshal(v, &lineage)
		}
	}
	return serial, lineage
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
