// Package applying executes a plan: it walks the operation graph the plan
// recorded, in parallel up to a limit, and for each change re-plans the
// instance with the now-known configuration (the final plan), checks it
// keeps every value the plan promised, applies it, checks the result, and
// hands the new object to the state writer before reporting it done.
//
// Apply decides nothing: actions, order and replacements all come from the
// plan. A failure stops only what depends on it; every error is reported.
package applying
