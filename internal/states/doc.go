// Package states holds Cairn's state model: the objects that exist, by
// resource instance address, with the outputs of the last run.
//
// Objects are kept in their stored form (ObjectSrc: attributes as JSON, as
// state files hold them) and decoded against a schema only when planning
// needs their value, because a large state is mostly read and rewritten, not
// inspected. Object converts between the two forms.
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
