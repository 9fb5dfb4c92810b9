// Package applying executes a plan: it walks the operation graph the plan
// recorded, in parallel up to a limit, and for each change re-plans the
// instance with the now-known configuration (the final plan), checks it
// keeps every value the plan promised, applies it, checks the result, and
// hands the new object to the state writer before reporting it done.
//
// Apply decides nothing: actions, order and replacements all come from the
// plan. A failure stops only what depends on it; every error is reported.
//
// Boundary: apply decides nothing, so it imports nothing that decides
// (planning, refactoring; objchange's checks reach it through lifecycle),
// and it writes state only through the writer it is handed.
//
// Imports:
//
//	deny internal/planning internal/refactoring internal/objchange # apply executes what the plan recorded; it never re-derives a decision
//	deny internal/states/statefile internal/states/statemgr internal/backends/... internal/render internal/command # state is written through the writer the caller passes; no files, no terminal
package applying
