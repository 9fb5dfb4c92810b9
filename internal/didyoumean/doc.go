// Package didyoumean suggests a name the user may have meant when the one
// they wrote names nothing: the "Did you mean ...?" of Terraform's
// diagnostics for misspelled attributes, resource types and module calls.
//
// It knows nothing of configuration; callers pass the names that would
// have been valid.
//
// Imports:
//
//	deny internal/... # a leaf: callers pass the names that would have been valid
package didyoumean
