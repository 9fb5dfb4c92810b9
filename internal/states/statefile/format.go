package statefile

import "encoding/json"

// The structs in this file mirror the version 4 JSON layout. Field order is
// significant: encoding/json writes fields in declaration order, and that
// order is the one Terraform 1.5.7 writes, which keeps our output
// byte-identical to its output.

// formatVersion is the only state format version this package handles.
const formatVersion = 4

type fileV4 struct {
	// Version is a json.Number so that a non-integer or huge value is
	// reported by us, in words, rather than as a Go type error.
	Version          json.Number         `json:"version"`
	TerraformVersion string              `json:"terraform_version"`
	Serial           uint64              `json:"serial"`
	Lineage          string              `json:"lineage"`
	Outputs          map[string]outputV4 `json:"outputs"`
	Resources        []resourceV4        `json:"resources"`
	// CheckResults is read and dropped: check results are recomputed on
	// every run and Cairn does not evaluate check blocks yet. It is always
	// written as null, which is what Terraform writes for a configuration
	// without checks.
	CheckResults json.RawMessage `json:"check_results"`
}

type outputV4 struct {
	Value     json.RawMessage `json:"value"`
	Type      json.RawMessage `json:"type"`
	Sensitive bool            `json:"sensitive,omitempty"`
}

type resourceV4 struct {
	Module string `json:"module,omitempty"`
	Mode   string `json:"mode"`
	Type   string `json:"type"`
	Name   string `json:"name"`
	// Provider is empty when the instances name their provider instances
	// (instanceV4.Provider), as OpenTofu writes it; never both.
	Provider  string       `json:"provider,omitempty"`
	Instances []instanceV4 `json:"instances"`
}

type instanceV4 struct {
	// IndexKey stays raw so that a number can be checked for being a whole
	// number without float64 rounding first.
	IndexKey json.RawMessage `json:"index_key,omitempty"`
	Status   string          `json:"status,omitempty"`
	Deposed  string          `json:"deposed,omitempty"`
	// Provider is the provider configuration instance of the object
	// (provider["..."].by_region["us"]) when an instance of its resource
	// uses a keyed provider instance (OpenTofu 1.9); empty otherwise.
	Provider      string          `json:"provider,omitempty"`
	SchemaVersion uint64          `json:"schema_version"`
	Attributes    json.RawMessage `json:"attributes,omitempty"`
	// AttributesFlat is only read, to reject it clearly: it is the legacy
	// flatmap form left by an upgrade from format version 3, which
	// Terraform converts with the provider's help on the next refresh.
	AttributesFlat      map[string]string `json:"attributes_flat,omitempty"`
	SensitiveAttributes json.RawMessage   `json:"sensitive_attributes,omitempty"`
	// IdentitySchemaVersion and Identity are the object's resource
	// identity (Terraform 1.12+, OpenTofu 1.12): written only for an
	// object that has one, where Terraform 1.12 writes them.
	IdentitySchemaVersion *uint64         `json:"identity_schema_version,omitempty"`
	Identity              json.RawMessage `json:"identity,omitempty"`
	Private               []byte          `json:"private,omitempty"`
	Dependencies          []string        `json:"dependencies,omitempty"`
	CreateBeforeDestroy   bool            `json:"create_before_destroy,omitempty"`
}

// Mode names as the format spells them.
const (
	modeManaged = "managed"
	modeData    = "data"
)

// statusTainted is the status of a tainted object; a ready object has none.
const statusTainted = "tainted"
