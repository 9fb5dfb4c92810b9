// Package applyjournal is the apply journal a remote backend keeps beside
// its state, in the form the local backend's journal file gives it
// (statemgr): a header naming the snapshot the apply started from, then
// one record per finished object or output, each statefile's record
// encoding ({"object":…} or {"output":…}), sealed on its own by the
// state's transform when one is set. It holds the rules every backend
// applies alike: how a record is encoded and decoded, how a journal is
// replayed onto its base, and whether a journal is still pending, already
// folded in (stale), or does not belong to the stored state.
//
// Where the records are kept (rows, objects) and how a group of them is
// committed is the backend's business: package pg keeps them as rows,
// package s3 as objects, and both take these rules, GroupWriter and Live
// (the live state of an apply, which a backend's Recorder embeds and
// closes its own way) from here so that the journals cannot drift apart.
//
// Imports:
//
//	deny internal/configschema internal/providers/... internal/lang/... internal/planning internal/applying internal/command # state here is bytes and a model
package applyjournal
