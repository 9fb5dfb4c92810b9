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
// Each special behaviour is a named step (ignoreChanges, decideAction,
// replaceTriggered, checkPreventDestroy, ...) so it can be read and tested
// alone. Planning never writes state or talks to a terminal.
package planning
