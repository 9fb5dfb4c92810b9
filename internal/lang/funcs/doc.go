// Package funcs holds the built-in function library of the Terraform
// language as Terraform 1.5 offers it, with the functions Terraform (to
// 1.15) and OpenTofu (to 1.12) added since and the built-in provider's
// (provider::terraform::*), for Cairn's expression evaluator.
//
// Table returns the functions by name, ready to go into an hcl.EvalContext.
// Most of them come from well-kept libraries (go-cty's stdlib, HashiCorp's
// go-cty-funcs, hcl's tryfunc, go-cty-yaml); this package adds only what
// none of them provides, and the few adjustments needed to match
// Terraform 1.5's behaviour. Each file says which library supplies which
// function; docs/functions.md lists them all.
//
// Two rules hold for every function in the table. Marks pass through as
// cty's function machinery passes them, unknown results included (a
// sensitive argument gives a sensitive result), and an error from a call
// with a sensitive argument never repeats that argument's value (see
// markSafe).
//
// Apart from rendering templatefile's templates, this package evaluates no
// expressions and knows nothing of modules, resources, state or plans: the
// caller tells it the module directory, the plan timestamp and whether
// impure functions may run, through Options.
// It imports configschema and marks only for the names of the sensitive
// and ephemeral marks,
// hclscan to refuse templates nested too deeply for hcl's parser, and
// typeconv for collection conversions in linear time.
//
// Imports:
//
//	deny internal/... # the function table knows no modules, resources, state or plans
//	allow internal/configschema internal/hclscan internal/marks
//	allow internal/lang/typeconv # collection conversions in linear time, as convert gives them
package funcs
