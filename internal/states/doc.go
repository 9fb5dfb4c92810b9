// Package states holds Cairn's state model: the objects that exist, by
// resource instance address, with the outputs of the last run.
//
// Objects are kept in their stored form (ObjectSrc: attributes as JSON, as
// state files hold them) and decoded against a schema only when planning
// needs their value, because a large state is mostly read and rewritten, not
// inspected. Object converts between the two forms; EncodeObject and
// DecodeObject do so for a resource's object with its schema: the stored
// form leaves out the sensitive marks the schema implies, as Terraform's
// does, and DecodeObject applies them again.
//
// What state can hold is decided here: wholly known values, the sensitive
// mark only (recorded as paths), and numbers NumberStorable accepts
// (finite, within MaxNumberExponent). Callers refuse or repair a value
// before it gets here by these rules: lang's "Number out of range" at the
// argument, applying's nulls in place of what a provider returned.
//
// Subpackages: statefile (the Terraform v4 JSON format) and statemgr (the
// local backend: lock, atomic snapshots, and the journal that makes every
// finished instance durable during apply).
//
// This package knows nothing of planning or configuration.
//
// Imports:
//
//	deny internal/planning internal/applying internal/configs internal/lang/... internal/eval internal/lifecycle internal/providers/... # the state model knows nothing of planning or configuration
package states
