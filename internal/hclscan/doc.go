// Package hclscan follows the nesting of HCL source byte by byte, without
// parsing it: brackets, quoted strings, template interpolations, comments
// and heredocs in the native syntax, and arrays, objects and strings in the
// JSON syntax.
//
// It exists for two jobs that must happen before, or instead of, the
// recursive-descent parsers in hashicorp/hcl: finding where a large file
// can be cut into pieces that parse in parallel (package configs), and
// refusing input nested so deeply that the parsers would exhaust the
// goroutine stack, which kills the process with no chance to recover
// (Depth and MaxDepth).
//
// Boundary: it knows bytes and hcl ranges only; it builds no syntax tree
// and imports nothing of Cairn's.
//
// Imports:
//
//	deny internal/... cfnschema cloudcontrol/... # it imports nothing of Cairn's
//	deny github.com/hashicorp/hcl/v2/hclsyntax github.com/hashicorp/hcl/v2/json # it builds no syntax tree
package hclscan
