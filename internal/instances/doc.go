// Package instances holds how a resource repeats: its expansion into
// instance keys by count, for_each, or neither, and the count.index,
// each.key and each.value every instance sees.
//
// Planning decides an expansion, the plan records it, and apply uses the
// recorded one; evaluation (namedvals, eval) reads it. An Expansion is
// immutable once made, so all of them can share it across goroutines.
//
// Boundary: the package knows addresses and cty values, nothing of
// configuration, state or how an expansion was decided.
//
// Imports:
//
//	deny internal/... # addresses and cty values only: no configuration, state or planning
//	allow internal/addrs
package instances
