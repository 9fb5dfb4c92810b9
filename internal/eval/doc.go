// Package eval holds the evaluation steps planning and applying share:
// finalizing root input variables, expanding a resource's count or for_each
// into instance keys, building the scope an instance's expressions see,
// evaluating preconditions and postconditions, starting and configuring
// provider instances, and giving each module its function table with the
// functions of the plugin providers it declares (FunctionTables).
//
// Keeping them here means apply evaluates exactly as plan did; neither phase
// carries a private copy of these rules. StateScope applies the same rules
// to the state alone, without planning, for the console.
//
// Boundary: the steps are the same whichever phase calls them, so the
// package imports neither phase, nor the command line.
//
// Imports:
//
//	deny internal/planning internal/applying internal/command # both phases call these steps; neither is known here
package eval
