// Package plans holds the plan model: the change decided for every resource
// instance and output (action, reason, before and after values), the state
// and variable values the plan was made from, and the operation graph that
// apply runs. It also holds the plan file codec (planfile.go), which
// planfile_encryption.go wraps in OpenTofu's whole-file encryption.
//
// A plan records decisions; it does not know how they were made. Apply
// executes exactly what it finds here and never re-derives an action.
//
// Imports:
//
//	deny internal/planning internal/applying internal/eval internal/lang/... internal/lifecycle internal/providers/... # a plan records decisions, not how they were made
package plans
