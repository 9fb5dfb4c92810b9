package plans

import "encoding/json"

// ResourceAttr is one resource instance attribute that planned changes
// (resources or outputs) refer to, directly or through locals and other
// resources: Terraform's relevant_attributes, which tells which drift
// mattered. It is kept in the JSON form Terraform writes, since it is
// only ever shown.
type ResourceAttr struct {
	// Resource is the instance's address.
	Resource string `json:"resource"`
	// Attribute is the path: names as strings, index keys as their JSON.
	Attribute []json.RawMessage `json:"attribute"`
}
