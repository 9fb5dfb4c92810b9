// Package statefile reads and writes Terraform's state file format, version
// 4, exactly as Terraform 1.5.7 lays it out, so that a state Cairn writes can
// be handed back to Terraform (and a Terraform state to Cairn) with no
// migration step and no spurious diff in version control.
//
// The package converts between bytes and the states model; it knows nothing
// of where the bytes live (that is statemgr's job), of locking, of schemas or
// of planning. Attribute values stay in their stored JSON form: decoding them
// needs a schema, which only the engine has.
//
// Besides whole files it offers ObjectRecord and OutputRecord, the v4
// encoding of a single object or output, so that other formats built from
// state entries (statemgr's apply journal) mean exactly what the same entry
// in a state file would.
//
// Imports:
//
//	deny internal/states/statemgr internal/backends/... internal/configschema os # bytes and the model: not where they live, not schemas
package statefile
