// Package explorer writes the page `cairn show -html` prints: one
// self-contained HTML file that shows a saved plan (summary, filters,
// search, every change with Terraform's diff, drift, outputs and the
// operation graph apply will run) or, without a plan, a state (resources
// by module, their attributes and dependencies).
//
// The page makes no network request when opened: its style sheet and
// script are embedded from assets/ into the binary and inlined, the graph
// is laid out in Go (internal/graphsvg) and inlined as SVG, and the data
// travels as JSON in a <script type="application/json"> element, escaped
// by html/template so no value can end the element. The script only adds
// interaction: filters, search, opening a change from the graph, the
// highlight of what a node depends on and what depends on it, zoom.
//
// What a change shows is what `cairn show PLANFILE` prints for it,
// line by line (render.PlanBlocks): the same diffs and the same masking
// of sensitive values, so the page cannot show a secret the text hides.
// Nothing here formats a value.
//
// Boundary: it reads plans, states and schemas and writes a page to an
// io.Writer; it knows nothing of flags, files or terminals. Only the
// command line (internal/command) imports it, so the provider plugin
// binaries never link it or the layout engine.
//
// Imports:
//
//	deny internal/planning internal/applying internal/lifecycle internal/states/statemgr internal/backends/... internal/command os # it only shows what it is handed: callers pass an io.Writer
package explorer
