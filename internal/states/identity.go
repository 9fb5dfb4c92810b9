package states

import "bytes"

// Identity is the resource identity a provider returned for an object
// (plugin protocol 6.9): its value as JSON, as state v4 stores it under
// "identity", and the version of the identity schema it was written
// under ("identity_schema_version"). It is kept in this raw form: only
// the provider's identity schema, which the lifecycle steps ask for when
// they send an identity back, gives it a type, and a stored identity of
// an older version is upgraded by the provider before it is decoded.
// The zero Identity is "none" (a provider without identities, or an
// object written before Terraform 1.12).
type Identity struct {
	JSON          []byte
	SchemaVersion uint64
}

// IsNone reports an absent identity.
func (id Identity) IsNone() bool { return len(id.JSON) == 0 }

// Equal reports identities with the same version and JSON text.
func (id Identity) Equal(o Identity) bool {
	return id.SchemaVersion == o.SchemaVersion && bytes.Equal(id.JSON, o.JSON)
}
