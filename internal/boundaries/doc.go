// Package boundaries checks the import graph of the module against the
// boundaries its packages state, as Kubernetes' import-boss does: each
// package's doc.go says in prose what the package is for and what it must
// not import or know, and ends with the same rules in a form this package
// reads (an "Imports:" block; the syntax is in docs/design/packages.md).
// The rules of a doc.go hold for its package and every package below its
// directory.
//
// Check takes the graph go list -deps reports (Load) and returns every
// crossing, each naming the edge, the rule and the doc.go line it is
// written on, so a change that crosses a boundary fails
// TestModuleBoundaries with the import that crossed it. Rules that hold
// everywhere are checked too: every package has a doc.go with a package
// comment, and a package reads the process's flags, environment or
// terminal, or has an init function, only where its rules say "uses".
//
// Boundary: the checker reads source files and go list's answer; it
// imports nothing of what it checks.
//
// Imports:
//
//	deny internal/... cmd/... cloudcontrol/... cfnschema # the checker must not depend on what it checks
package boundaries
