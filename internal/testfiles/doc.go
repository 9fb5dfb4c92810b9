// Package testfiles is the language of Terraform's test files
// (*.tftest.hcl, and OpenTofu's *.tofutest.hcl) and the runner that
// carries them out, as "terraform test" (1.6+) and "tofu test" do.
//
// A file is a list of run blocks. Each run plans or applies the module
// under test (the root configuration, or the module a run's module block
// names) in this process, through internal/modulerun, against a state
// kept in memory per state key (the run's state_key, else the module's
// source): runs with the same key share it, and at the end of the file
// every state is destroyed, the last one created first. Consecutive
// parallel runs that share no state and no outputs run at once. Mocked
// provider configurations and overridden objects are served from mocks
// through the engine's resource hook. Nothing of a test run touches the
// configuration's backend.
// After each run its assert blocks are evaluated in the module's root
// scope, seeing the planned values (plan) or the new state (apply), the
// root outputs as output.NAME and earlier runs' outputs as run.NAME.
//
// Parsing (Parse) and running (Runner) are apart so a parse error is
// reported with its file and line before anything runs. The runner
// reports progress through an Observer; rendering (text, JSON, JUnit)
// is the command line's.
//
// Imports:
//
//	deny internal/command/... internal/render # the command line renders; this package decides
//	deny internal/backends/... internal/states/statemgr # a test run's state lives only in memory
package testfiles
