// Package configs loads a directory of Terraform-language configuration
// (every *.tf and *.tf.json file, native and JSON syntax, and OpenTofu's
// *.tofu and *.tofu.json, which hide the .tf file of the same name) into a Module: the
// declared variables, locals, outputs, providers, resources and data
// sources, with their meta-arguments decoded and their bodies left for the
// planner to evaluate against a provider's schema. Override files
// (override.tf, *_override.tf) are merged into those declarations after the
// other files, by Terraform 1.5.7's rules.
//
// Loading is static: nothing here evaluates an expression that could depend
// on another object. Every problem in the files is returned as diagnostics
// with the narrowest source range available; loading never panics on bad
// input.
//
// This package knows nothing of state, plans or providers' behaviour.
//
// Imports:
//
//	deny internal/states/... internal/plans internal/providers/... internal/lang/... internal/eval internal/planning internal/applying # loading is static: no state, plans, providers or evaluation
package configs
