// Package parallel spreads independent per-item work over the cores.
//
// Several steps of a command run do the same small piece of work for
// every object of a large configuration or state (analysing a resource
// body, rendering a change, encoding a state resource). Each call here
// splits the items into chunks that idle workers take in turn, so a
// cluster of expensive items does not leave one core busy while the
// other waits.
//
// Boundary: it knows not what the items are, and imports nothing of
// Cairn's.
//
// Imports:
//
//	deny internal/... # it knows not what the items are
package parallel
