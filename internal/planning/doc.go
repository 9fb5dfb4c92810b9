// Package planning turns configuration, prior state and providers into a
// plan: it builds the dependency graph of the configuration, walks it in
// parallel evaluating locals, outputs, provider configurations and
// resources, plans every resource instance through its provider (checking
// each answer against the protocol contract), and records the operation
// graph apply will run.
//
// Each special behaviour is a named step (ignoreChanges, decideAction,
// replaceTriggered, checkPreventDestroy, ...) so it can be read and tested
// alone. Planning never writes state or talks to a terminal.
package planning
