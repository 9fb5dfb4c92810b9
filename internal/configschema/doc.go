// Package configschema holds the schema model of resource, data source and
// provider configuration: attributes (with Required/Optional/Computed and
// Sensitive flags, primitive or nested-attribute types) and nested blocks
// (with their nesting mode and item limits). It is the shape protocol v6
// describes, in Go terms.
//
// A schema answers three questions the engine asks all the time: the cty type
// of a whole object (ImpliedType), how to decode an HCL body into that type
// (DecoderSpec), and which paths hold sensitive values. Answers are computed
// once per schema and cached, because planning asks them once per instance.
// Validation asks one more, before any value exists: whether a reference's
// attribute path names something the schema has (StaticValidateTraversal).
//
// This package knows nothing of providers, state or plans.
//
// Imports:
//
//	deny internal/... # the schema model is below providers, state and plans
//	allow internal/marks # the sensitive mark's name
//	allow internal/diags internal/didyoumean # checking a reference against the schema reports what is wrong, and what was meant
package configschema
