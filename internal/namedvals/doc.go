// Package namedvals holds the values of named objects during one plan or
// apply run: input variables, locals, the expansion of each resource
// (count, for_each, or unknown) and the value of each resource instance.
// It implements lang.Data, so expressions evaluated by any graph vertex see
// what earlier vertices decided.
//
// Whole-resource values (the tuple or object an expression like
// aws_instance.a[*].id traverses) are built once and cached until an
// instance of that resource changes, so a resource with 10,000 instances
// referenced by 10,000 others is assembled once, not 10,000 times.
//
// Boundary: the package holds values, not how they were decided: it
// imports no planning, applying or evaluation step, no provider and no
// state.
//
// Imports:
//
//	deny internal/planning internal/applying internal/eval internal/lifecycle internal/providers/... internal/states/... # values, not how they were decided
package namedvals
