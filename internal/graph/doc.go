// Package graph holds a dependency graph over integer vertices, cycle
// detection that names every cycle, and a parallel walk that runs each
// vertex after its dependencies with bounded concurrency. A visit returns
// its result (WalkResults), which the walk stores by vertex before any
// dependent starts: vertices hand over what they produced instead of
// writing state they share.
//
// Vertices are dense integers (0..n-1) so that callers keep their own
// vertex data in slices and the graph stays allocation-light at tens of
// thousands of vertices. The package knows nothing of Terraform concepts.
//
// Imports:
//
//	deny internal/... # the graph knows no Terraform concepts
package graph
