// Package lang evaluates Terraform-language expressions and blocks: it finds
// the references an expression makes, builds an hcl.EvalContext holding just
// the referenced objects (asked of a Data source), expands dynamic blocks,
// and decodes bodies against a schema. The function library lives in
// lang/funcs.
//
// Values come from a Data implementation the caller provides (planning and
// applying each have one); this package never walks a graph or reads state.
//
// Imports:
//
//	deny internal/graph internal/states/... internal/plans internal/planning internal/applying # values come from the caller's Data: no graph walks, no state
package lang
