// Package lang evaluates Terraform-language expressions and blocks: it finds
// the references an expression makes, builds an hcl.EvalContext holding just
// the referenced objects (asked of a Data source), expands dynamic blocks,
// and decodes bodies against a schema. The function library lives in
// lang/funcs.
//
// Values come from a Data implementation the caller provides (planning and
// applying each have one); this package never walks a graph or reads state.
// Of the state model it uses one rule, which numbers state can hold
// (states.NumberStorable): UnstorableNumber turns a number beyond it into
// the "Number out of range" diagnostic at the argument that holds it.
//
// Imports:
//
//	deny internal/graph internal/states/... internal/plans internal/planning internal/applying # values come from the caller's Data: no graph walks, no state
//	allow internal/states # only which numbers state can hold (states.FirstUnstorableNumber), for the "Number out of range" diagnostic
package lang
