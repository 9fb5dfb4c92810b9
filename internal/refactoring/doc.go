// Package refactoring turns moved blocks (and Terraform's implied moves
// between a resource with and without count) into rewrites of state
// addresses, and checks the statements against the configuration.
//
// Its functions are pure: they read configuration and addresses and
// rewrite the state they are handed; planning calls ApplyMoves on its
// copy of the previous run's state before refreshing anything, and
// ValidateMoves once the configuration's instances are known. It must not
// import planning, applying, providers or anything that talks to a remote
// system, and it never evaluates expressions.
//
// Imports:
//
//	deny internal/planning internal/applying internal/providers/... internal/lifecycle internal/lang/... internal/eval # pure rewrites of state addresses: no providers, no evaluation
package refactoring
