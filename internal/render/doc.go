// Package render turns plans, state, output values and diagnostics into what
// people and tools read: the human text Terraform 1.5.7 prints for
// `terraform plan`, `show`, `apply`, `output` and `state show`, the JSON
// documents of `terraform show -json` (as github.com/hashicorp/terraform-json
// types, so tools written for Terraform read Cairn's, but for a plan's
// configuration object, described from the configuration the plan was
// made from in its own types: see configjson.go) and of `terraform
// metadata functions -json`, the messages of the
// machine-readable UI stream of `plan -json` and `apply -json`, and
// diagnostics.
//
// Users and scripts grep Terraform's wording and layout, so the text here
// reproduces Terraform's output format byte for byte, colours included; the
// golden files under testdata/terraform were captured from the real
// Terraform 1.5.7 binary and the tests hold the renderer to them. The one
// deliberate differences are the diagnostic location line, which names
// file:line:col (Cairn's house format) where Terraform prints "line N", and
// values derived from a sensitive one (terraform_data's output, an id or
// ARN built from a sensitive name, a masked attribute), which the human
// text and the ids of the UI stream hide where Terraform prints them
// (derived_sensitive.go, ObjectID).
//
// How a change is shown follows Terraform's rules: a diff tree is computed
// from the before and after values against the resource type's schema
// (diff_*.go), then printed (print_*.go). Values of dynamically typed
// attributes (terraform_data's input and output) are compared the way
// Terraform compares JSON: maps look like objects and sets like lists.
//
// The HTML page of `show -html` shows the same text one change at a time:
// PlanBlocks and StateParts cut what Plan and State print into blocks,
// each line classified by the colour it has in a terminal, from the same
// diffs and masking, so the page cannot show what the text hides.
//
// This package only formats. It reads plans, states, schemas and
// diagnostics and never changes them; it knows nothing of flags, terminals
// or files: callers pass an io.Writer and say whether colour is wanted.
//
// Imports:
//
//	deny internal/planning internal/applying internal/lifecycle internal/states/statemgr internal/backends/... internal/command os # it only formats: callers pass an io.Writer
//	deny linked internal/graphsvg github.com/goccy/... # every command renders text; Graphviz's start-up cost belongs to show -html alone
package render
