// Package planning turns configuration, prior state and providers into a
// plan: it builds the dependency graph of the configuration, walks it in
// parallel evaluating locals, outputs, provider configurations and
// resources, plans every resource instance through its provider (checking
// each answer against the protocol contract), and records the operation
// graph apply will run.
//
// Three modes, as in Terraform: normal plans converge objects on the
// configuration, destroy plans delete every object, and refresh-only plans
// read every object and plan no resource action at all (outputs are still
// recomputed, from the refreshed objects), so applying one only records
// what changed outside.
//
// Each special behaviour is a named step, in one of three mechanisms kept
// apart: configuration-driven rules (module expansion, moves through
// internal/refactoring, orphan reasons, state dependencies,
// create_before_destroy, replace_triggered_by), provider-driven rules
// (decideAction, relevant attributes) and single-run options (-target in
// selectTargets, -refresh-only, -replace). docs/design/planning-rules.md
// maps each to its function and table test. Planning never writes state or
// talks to a terminal.
//
// Modules: vertices are keyed by static module path and visited in every
// instance of their module; a module call's vertex expands the call and
// returns its instances before anything in the child runs, and a child's
// input variables are vertices of the child evaluated in the caller's
// scope.
//
// Concurrency: vertices run in parallel and write nothing they share.
// Each returns its result (changes, expansions, objects read, outputs,
// checks, diagnostics: see result); the walk stores it before the
// vertex's dependents start, a dependent reads what it needs from the
// results of the vertices it depends on, and fold gathers every result
// into the plan on one goroutine after the walk, in vertex order. The
// only structures written during the walk are the value table
// expressions read (namedvals) and the provider instances
// (providers.InstanceSet).
//
// Imports:
//
//	deny internal/applying internal/states/statefile internal/states/statemgr internal/backends/... internal/render internal/command # planning decides; it never writes state or talks to a terminal
package planning
